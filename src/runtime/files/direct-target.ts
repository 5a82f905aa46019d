// Output into a device, pipe or /dev/stdout-like path: opened and written as is, never replaced or renamed.
import { promises as fs } from 'node:fs';
import { UsageError } from '../cli-errors.js';
import type { OutputTarget } from './file-target.js';
import { FileWriter } from './file-writer.js';
import { writing } from './write-errors.js';

/**
 * What was written is delivered and cannot be taken back, as on stdout: a failed run continues by
 * cursor. Opening a FIFO waits for its reader, as `cat > fifo` does.
 */
export async function directTarget(file: string, opts: { resume: boolean }): Promise<OutputTarget> {
  if (opts.resume) {
    throw new UsageError(
      `--resume works with a regular file; ${file} is a device or pipe`,
      'continue with --cursor instead',
    );
  }
  // Append mode: a /dev/fd/N opened by the shell with >> must not be cut short.
  const handle = await writing(file, () => fs.open(file, 'a'));
  const stream = new FileWriter(handle, file);
  return {
    kind: 'direct',
    stream,
    startsEmpty: true,
    resumed: undefined,
    commit: () => stream.close(),
    keep: async () => {
      await stream.close().catch(() => {});
      return undefined;
    },
    discard: () => stream.abandon(),
  };
}
