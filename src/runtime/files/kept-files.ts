// The files a run reads or keeps (its archive, catalogue, state, learned file), which neither -o nor --metrics-file may
// name: writing there would replace them ("match --catalog p.csv -o p.csv" lost the catalogue, "-o" the archive).
import { type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../cli-errors.js';

/** A file the run must not write over, and what it is, as a message names it. */
export interface KeptFile {
  path: string;
  what: string;
  /**
   * Read once, and only when it is there (match's learned file): a pipe may hand it over. Every other kept file is read
   * more than once or written, so a pipe there is refused.
   */
  pipeOk?: boolean;
}

/** What is at `file`, if anything: a path through a file (ENOTDIR) or one we may not look at is left to its open to say. */
function statOrNone(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The same file: one inode when both exist (a link, another spelling of the path), else the same absolute path. */
function sameFile(a: string, b: string): boolean {
  const sa = statOrNone(a);
  const sb = statOrNone(b);
  // A device (/dev/null, /dev/stdout) replaces nothing.
  if (sa?.isCharacterDevice() || sb?.isCharacterDevice()) return false;
  if (sa && sb) return sa.dev === sb.dev && sa.ino === sb.ino;
  return path.resolve(a) === path.resolve(b);
}

/**
 * A file `flag` names is one the run keeps (exit 2). It says which flag it refused: a run refused for its
 * --metrics-file writes no metrics there at its end (run-ops.ts).
 */
export class WritingOverError extends UsageError {
  override name = 'WritingOverError';
  constructor(
    readonly flag: string,
    file: string,
    what: string,
  ) {
    super(`${flag} ${file} is the ${what}: writing there would replace it`, `give ${flag} another file`);
  }
}

/** Refuses (exit 2, before anything is read or sent) a file `flag` names that is one of `kept`. */
export function refuseWritingOver(flag: string, file: string | undefined, kept: readonly KeptFile[]): void {
  if (file === undefined || file === '' || file === '-') return;
  for (const k of kept) if (k.path !== '' && sameFile(file, k.path)) throw new WritingOverError(flag, file, k.what);
}

/** What a path names when it is not a file or folder: a pipe blocks its reader (no writer) or is read once (`<(…)`). */
export function specialKind(file: string): string | undefined {
  const found = statOrNone(file);
  if (found === undefined || found.isFile() || found.isDirectory()) return undefined;
  if (found.isFIFO()) return 'a pipe';
  if (found.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Refuses (exit 2, before anything is read or sent) a kept file that is a pipe, socket or device: a named pipe with no
 * writer blocked the run where SIGTERM could not end it, and `--catalog <(…)` was read once and then looked empty.
 */
export function refuseSpecialFiles(kept: readonly KeptFile[]): void {
  for (const k of kept) {
    const kind = k.path === '' || k.pipeOk ? undefined : specialKind(k.path);
    if (kind)
      throw new UsageError(
        `the ${k.what} ${k.path} is ${kind}, not a file`,
        `give a regular file: ${k.what === 'catalogue' ? "save the pipe's output to one first, as it is read more than once" : 'a pipe or device may block the run'}`,
      );
  }
}

/**
 * Neither -o nor --metrics-file names a file the run keeps, nor --metrics-file the output, and every kept file is a
 * file: checked before anything runs.
 */
export function refuseOverwrites(
  settings: { output?: string | undefined; metricsFile?: string | undefined },
  kept: readonly KeptFile[],
): void {
  refuseSpecialFiles(kept);
  refuseWritingOver('-o', settings.output, kept);
  const output = settings.output ? [{ path: settings.output, what: 'output (-o)' }] : [];
  refuseWritingOver('--metrics-file', settings.metricsFile, [...kept, ...output]);
}
