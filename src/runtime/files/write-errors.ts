// Turns a failed file-system call on a file the run must write into CannotWriteError: the path, the reason in words, a hint.
import { fileErrorWords } from '../../archive/archive-errors.js';
import { CannotWriteError } from '../cli-errors.js';

const ELSEWHERE = 'write somewhere else with -o, or fix the folder';

/** What to do about each failure; its words are the one table's (fileErrorWords, src/archive/archive-errors.ts). */
const HINTS: Record<string, string> = {
  ENOSPC: 'free some space, or write to another disk',
  EDQUOT: 'free some space, or write to another disk',
  EROFS: ELSEWHERE,
  EACCES: `check the permissions, or ${ELSEWHERE}`,
  EPERM: `check the permissions, or ${ELSEWHERE}`,
  ENAMETOOLONG: 'use a shorter file name',
  EISDIR: 'give a file name, e.g. -o folder/recalls.csv',
  ENOTDIR: 'check the path',
  ENOENT: 'create the folder first, or check the path',
  ELOOP: 'check the symbolic links on the path',
  EFBIG: 'write to a new file',
  EIO: 'check the disk',
  EMFILE: 'raise the open-file limit (ulimit -n)',
  ENFILE: 'try again later',
  EPIPE: 'keep the reader running until the export ends',
  ENXIO: 'redirect the output (> file) instead',
  ETXTBSY: 'try again later',
};

/** The code of a Node.js file-system error, if `err` is one. */
export function errnoCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A full disk (or a used-up quota), in the table's words with its hint: no other folder or permission fixes it, so
 * every writer says it alike (the config file's too).
 */
export function diskFull(err: unknown): { reason: string; hint: string } | undefined {
  const code = errnoCode(err);
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return undefined;
  return { reason: fileErrorWords(err, 'write') as string, hint: HINTS[code] as string };
}

/**
 * CannotWriteError for a file-system error while writing `file`; anything else (a CannotWriteError
 * already, an abort, a bug) comes back unchanged. `hint` replaces the advice, which is about -o, except for a full
 * disk, which no other place or permission the hint may name would fix.
 */
export function cannotWrite(file: string, err: unknown, hint?: string): unknown {
  if (err instanceof CannotWriteError) return err;
  const words = writeReason(err);
  if (words === undefined) return err;
  return new CannotWriteError(file, words, diskFull(err)?.hint ?? hint ?? HINTS[errnoCode(err) as string] ?? ELSEWHERE);
}

/**
 * Why a file-system call failed, in words ("permission denied"); a system error without words is its code and call
 * (`EXDEV (rename)`). Undefined for anything else: Node's own ERR_* codes are bugs, not the disk.
 */
export function writeReason(err: unknown): string | undefined {
  return err instanceof Error ? fileErrorWords(err, 'write') : undefined;
}

/** Runs `fn`; a file-system error it throws becomes CannotWriteError for `file`. */
export async function writing<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw cannotWrite(file, err);
  }
}
