// --exec's program, looked up as spawn will look for it, so that a typo is refused before any request rather than
// retried for every recall of every poll ("command not found ... it stays pending").
import { accessSync, constants, type Stats, statSync } from 'node:fs';
import path from 'node:path';

/** Where no file can be, as execvp reads it: it goes on with PATH's next entry (EACCES remembered, as not executable). */
const NOT_HERE = new Set(['ENOENT', 'ENOTDIR', 'EACCES']);
/** Where execvp (and so spawn) stops searching and fails: a link loop or a name too long ends the lookup there. */
const STOPS = new Set(['ELOOP', 'ENAMETOOLONG']);

/**
 * What stops `program` from running: undefined when spawn would find a runnable file for it. PATH is searched in its
 * order, as spawn searches it: a runnable file first wins, and an entry where the search itself fails (a link loop, a name
 * too long) ends it there, as it would end every spawn.
 */
export function programProblem(
  program: string,
  searchPath: string | undefined,
  cwd: string = process.cwd(),
): 'not found' | 'not executable' | 'unreachable' | undefined {
  const candidates = program.includes('/')
    ? [path.resolve(cwd, program)]
    : (searchPath ?? '')
        .split(path.delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => path.join(dir, program));
  let files = 0;
  for (const file of candidates) {
    const found = statOf(file);
    if (found === 'stop') return 'unreachable';
    if (!found?.isFile()) continue;
    if (executable(file)) return undefined;
    files++;
  }
  return files > 0 ? 'not executable' : 'not found';
}

/**
 * The candidate's stat; undefined where no file can be (a PATH entry that is a file, common in hand-written cron
 * environments, or a folder the user may not search); 'stop' where spawn's search would fail. Anything else (EIO) is
 * thrown: it says nothing of where the program is.
 */
function statOf(file: string): Stats | 'stop' | undefined {
  try {
    return statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (NOT_HERE.has(code)) return undefined;
    if (STOPS.has(code)) return 'stop';
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
