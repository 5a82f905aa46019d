// Output into a device, pipe or /dev/stdout-like path: opened and written as is, never replaced or renamed.
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { UsageError } from '../cli-errors.js';
import type { OutputTarget } from './file-target.js';
import { FileWriter } from './file-writer.js';
import { writing } from './write-errors.js';

/**
 * Opens `file` to append. A FIFO's open waits for its reader, as `cat > fifo` does, in a thread that no signal ends:
 * an interrupt (Ctrl-C, SIGTERM: `signal`) while it waits opens the FIFO's reading end for a moment, so that the open
 * returns, closes both and throws the signal's reason (exit 130), rather than hang until a reader comes.
 */
async function openWaiting(file: string, signal: AbortSignal | undefined): Promise<FileHandle> {
  // Append mode: a /dev/fd/N opened by the shell with >> must not be cut short.
  const opening = fs.open(file, 'a');
  const fifo = (await fs.stat(file).catch(() => undefined))?.isFIFO() ?? false;
  if (!signal || !fifo) return opening;
  let stop = () => {};
  const interrupted = new Promise<'interrupted'>((resolve) => {
    stop = () => resolve('interrupted');
  });
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    const first = await Promise.race([opening, interrupted]);
    if (first !== 'interrupted') return first;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  // O_NONBLOCK: opening the reading end never waits for a writer. A FIFO this user may not read stays waited on.
  const reader = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  const closed = opening.then(
    (handle) => handle.close(),
    () => {},
  );
  if (reader) {
    await closed;
    await reader.close();
  }
  throw signal.reason;
}

/**
 * What was written is delivered and cannot be taken back, as on stdout: a failed run continues by
 * cursor. Opening a FIFO waits for its reader, as `cat > fifo` does, until `signal` aborts.
 */
export async function directTarget(
  file: string,
  opts: { resume: boolean; signal?: AbortSignal },
): Promise<OutputTarget> {
  if (opts.resume) {
    throw new UsageError(
      `--resume works with a regular file; ${file} is a device or pipe`,
      'continue with --cursor instead',
    );
  }
  const handle = await writing(file, () => openWaiting(file, opts.signal));
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
