// --exec's program, looked up as spawn will look for it, so that a typo is refused before any request rather than
// retried for every recall of every poll ("command not found ... it stays pending").
import { accessSync, constants, type Stats, statSync } from 'node:fs';
import path from 'node:path';

/** What stopping at a candidate means no file is there, as execvp reads it: it goes on with PATH's next entry. */
const NOT_HERE = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'ENAMETOOLONG', 'ELOOP']);

/** What stops `program` from running: undefined when spawn would find a runnable file for it. */
export function programProblem(
  program: string,
  searchPath: string | undefined,
  cwd: string = process.cwd(),
): 'not found' | 'not executable' | undefined {
  const candidates = program.includes('/')
    ? [path.resolve(cwd, program)]
    : (searchPath ?? '')
        .split(path.delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => path.join(dir, program));
  const files = candidates.filter((file) => statOf(file)?.isFile());
  if (files.length === 0) return 'not found';
  return files.some(executable) ? undefined : 'not executable';
}

/**
 * The candidate's stat, or undefined where no file can be there: a PATH entry that is a file (ENOTDIR, common in
 * hand-written cron environments), a folder the user may not search (EACCES), a name too long (ENAMETOOLONG), a link
 * loop (ELOOP). Anything else (EIO) is thrown: it says nothing of where the program is.
 */
function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (err) {
    if (NOT_HERE.has((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw err;
  }
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
