// The files a run reads or keeps (its archive, catalogue, state, learned file), which neither -o nor --metrics-file may
// name: writing there would replace them ("match --catalog p.csv -o p.csv" lost the catalogue, "-o" the archive).
import { statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../cli-errors.js';

/** A file the run must not write over, and what it is, as a message names it. */
export interface KeptFile {
  path: string;
  what: string;
}

/** The same file: one inode when both exist (a link, another spelling of the path), else the same absolute path. */
function sameFile(a: string, b: string): boolean {
  const sa = statSync(a, { throwIfNoEntry: false });
  const sb = statSync(b, { throwIfNoEntry: false });
  // A device (/dev/null, /dev/stdout) replaces nothing.
  if (sa?.isCharacterDevice() || sb?.isCharacterDevice()) return false;
  if (sa && sb) return sa.dev === sb.dev && sa.ino === sb.ino;
  return path.resolve(a) === path.resolve(b);
}

/** Refuses (exit 2, before anything is read or sent) a file `flag` names that is one of `kept`. */
export function refuseWritingOver(flag: string, file: string | undefined, kept: readonly KeptFile[]): void {
  if (file === undefined || file === '' || file === '-') return;
  for (const k of kept)
    if (k.path !== '' && sameFile(file, k.path))
      throw new UsageError(
        `${flag} ${file} is the ${k.what}: writing there would replace it`,
        `give ${flag} another file`,
      );
}

/** Neither -o nor --metrics-file names a file the run keeps, nor --metrics-file the output: checked before anything runs. */
export function refuseOverwrites(
  settings: { output?: string | undefined; metricsFile?: string | undefined },
  kept: readonly KeptFile[],
): void {
  refuseWritingOver('-o', settings.output, kept);
  const output = settings.output ? [{ path: settings.output, what: 'output (-o)' }] : [];
  refuseWritingOver('--metrics-file', settings.metricsFile, [...kept, ...output]);
}
