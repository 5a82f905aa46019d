// --exec's program, looked up as spawn will look for it, so that a typo is refused before any request rather than
// retried for every recall of every poll ("command not found ... it stays pending").
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

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
  const files = candidates.filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
  if (files.length === 0) return 'not found';
  return files.some(executable) ? undefined : 'not executable';
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
