// Decides what an `-o` path is: stdout, a device or pipe written through as is, or a regular file (symlinks followed).
import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../cli-errors.js';
import { cannotWrite, errnoCode } from './write-errors.js';

export type TargetPath =
  | { kind: 'stdout' }
  /** A device, FIFO or socket, or a /dev or /proc path such as /dev/stdout: opened and written as is. */
  | { kind: 'direct'; path: string }
  /** A regular file or a name not taken yet: `path` is where it really lives (symlinks followed). */
  | { kind: 'file'; path: string; stat: Stats | undefined };

/** Linux symlink depth limit: a loop ends as ELOOP. */
const MAX_LINKS = 40;

// /dev/stdout, /dev/fd/N and /proc/self/fd/N may point at a regular file the shell opened: renaming a
// new file onto it would replace the file behind the shell's back, so these are always written through.
const SPECIAL = /^\/(dev|proc)\//;
const STDOUT = /^\/(dev\/stdout|dev\/fd\/1|proc\/self\/fd\/1)$/;

async function statOrMissing(file: string, shown: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(file);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw cannotWrite(shown, err);
  }
}

function folderError(shown: string, why: string): UsageError {
  return new UsageError(`cannot write ${shown}: ${why}`, 'give a file name, e.g. -o folder/recalls.csv');
}

/**
 * The real location of a name that does not exist yet: its folder resolved, or a dangling link followed.
 * A missing folder is CannotWriteError (exit 10) when `strict`; otherwise the path is given back as the links lead,
 * for whoever writes there to fail with the file system's own reason.
 */
async function realMissing(abs: string, shown: string, depth: number, strict = true): Promise<string> {
  let link: string | undefined;
  try {
    link = await fs.readlink(abs);
  } catch {
    link = undefined; // not a link: a plain new name
  }
  if (link !== undefined) {
    if (depth >= MAX_LINKS) throw cannotWrite(shown, Object.assign(new Error('ELOOP'), { code: 'ELOOP' }));
    return realPathOf(path.resolve(path.dirname(abs), link), shown, depth + 1, strict);
  }
  const dir = path.dirname(abs);
  let realDir: string;
  try {
    realDir = await fs.realpath(dir);
  } catch (err) {
    // A missing folder is a file that cannot be written (exit 10), as for --state and the archive: one
    // problem, one exit code. Still found before any request.
    if (errnoCode(err) === 'ENOENT' && !strict) return abs;
    throw cannotWrite(shown, err);
  }
  return path.join(realDir, path.basename(abs));
}

async function realPathOf(abs: string, shown: string, depth: number, strict = true): Promise<string> {
  const stat = await statOrMissing(abs, shown);
  if (stat === undefined) return realMissing(abs, shown, depth, strict);
  try {
    return await fs.realpath(abs);
  } catch (err) {
    throw cannotWrite(shown, err);
  }
}

/** Where the output of `-o given` goes. Folders (also `name/`) are usage errors; a missing folder cannot be written (exit 10). */
export async function resolveTargetPath(given: string): Promise<TargetPath> {
  const abs = path.resolve(given);
  // Our own stdout by name: it may be a socket (which cannot be opened by path), so use the stream.
  if (given === '-' || STDOUT.test(abs)) return { kind: 'stdout' };
  const stat = await statOrMissing(abs, given);
  if (stat?.isDirectory()) throw folderError(given, 'it is a folder');
  if (/[/\\]$/.test(given)) throw folderError(given, 'a file name cannot end with /');
  if (SPECIAL.test(abs) || (stat !== undefined && !stat.isFile())) {
    if (stat === undefined) throw new UsageError(`cannot write ${given}: there is no such device`);
    return { kind: 'direct', path: abs };
  }
  const real = await realPathOf(abs, given, 0);
  // stat() followed the links already: it describes the real file.
  return { kind: 'file', path: real, stat };
}

/**
 * Where a file such as the `--state` file really lives: symbolic links followed, also a dangling one (a
 * first run writes through the link, which stays a link). A missing folder is not refused here: writing
 * there fails, as a file that cannot be written (exit 10), before anything else is written.
 */
export function realFilePath(given: string): Promise<string> {
  return realPathOf(path.resolve(given), given, 0, false);
}
