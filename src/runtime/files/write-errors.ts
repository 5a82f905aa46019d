// Turns a failed file-system call on a file the run must write into CannotWriteError: the path, the reason in words, a hint.
import { CannotWriteError } from '../cli-errors.js';

interface Reason {
  words: string;
  hint: string;
}

const ELSEWHERE = 'write somewhere else with -o, or fix the folder';

const REASONS: Record<string, Reason> = {
  ENOSPC: { words: 'the disk is full', hint: 'free some space, or write to another disk' },
  EDQUOT: { words: 'the disk quota is used up', hint: 'free some space, or write to another disk' },
  EROFS: { words: 'the file system is read-only', hint: ELSEWHERE },
  EACCES: { words: 'permission denied', hint: `check the permissions, or ${ELSEWHERE}` },
  EPERM: { words: 'operation not permitted', hint: `check the permissions, or ${ELSEWHERE}` },
  ENAMETOOLONG: { words: 'the file name is too long', hint: 'use a shorter file name' },
  EISDIR: { words: 'it is a folder', hint: 'give a file name, e.g. -o folder/recalls.csv' },
  ENOTDIR: { words: 'a part of the path is not a folder', hint: 'check the path' },
  ENOENT: { words: 'its folder does not exist', hint: 'create the folder first, or check the path' },
  ELOOP: { words: 'too many symbolic links', hint: 'check the symbolic links on the path' },
  EFBIG: { words: 'the file is too large', hint: 'write to a new file' },
  EIO: { words: 'input/output error', hint: 'check the disk' },
  EMFILE: { words: 'too many open files', hint: 'raise the open-file limit (ulimit -n)' },
  ENFILE: { words: 'too many open files on the system', hint: 'try again later' },
  EPIPE: { words: 'the reading end was closed', hint: 'keep the reader running until the export ends' },
  ENXIO: {
    words: 'no such device, or a socket that cannot be opened by name',
    hint: 'redirect the output (> file) instead',
  },
  ETXTBSY: { words: 'the file is busy', hint: 'try again later' },
};

/** The code of a Node.js file-system error, if `err` is one. */
export function errnoCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * CannotWriteError for a file-system error while writing `file`; anything else (a CannotWriteError
 * already, an abort, a bug) comes back unchanged. `hint` replaces the advice, which is about -o.
 */
export function cannotWrite(file: string, err: unknown, hint?: string): unknown {
  if (err instanceof CannotWriteError) return err;
  const words = writeReason(err);
  if (words === undefined) return err;
  return new CannotWriteError(file, words, hint ?? REASONS[errnoCode(err) as string]?.hint ?? ELSEWHERE);
}

/**
 * Why a file-system call failed, in words ("permission denied"); a system error without words is its code and call
 * (`EXDEV (rename)`). Undefined for anything else: Node's own ERR_* codes are bugs, not the disk.
 */
export function writeReason(err: unknown): string | undefined {
  const code = errnoCode(err);
  if (code === undefined || !/^E[A-Z0-9]+$/.test(code) || !(err instanceof Error)) return undefined;
  const reason = REASONS[code];
  if (reason) return reason.words;
  const syscall = (err as NodeJS.ErrnoException).syscall;
  return syscall ? `${code} (${syscall})` : code;
}

/** Runs `fn`; a file-system error it throws becomes CannotWriteError for `file`. */
export async function writing<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw cannotWrite(file, err);
  }
}
