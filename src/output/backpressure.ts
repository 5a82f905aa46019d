// Writing to an output stream with backpressure, failing instead of hanging when the stream errors or closes.
import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';

/** The output stream went away (closed pipe, destroyed file) before everything was written. */
export class OutputClosedError extends Error {
  override name = 'OutputClosedError';
  constructor() {
    super('the output stream closed before all data was written');
  }
}

function assertOpen(out: Writable): void {
  if (out.errored) throw out.errored;
  if (out.destroyed || out.writableEnded) throw new OutputClosedError();
}

/**
 * Resolves on `source`'s `event`; rejects when `source` or `out` errors, or `out` closes, first, so a
 * dead pipe never leaves a renderer waiting for a 'drain' that cannot come.
 */
export function waitFor(source: EventEmitter, event: string, out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    // An error or close that already happened will not be emitted again.
    if (out.errored || out.destroyed) {
      reject(out.errored ?? new OutputClosedError());
      return;
    }
    const cleanup = () => {
      source.off(event, onEvent);
      source.off('error', onError);
      out.off('error', onError);
      out.off('close', onClose);
    };
    const onEvent = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      reject(out.errored ?? new OutputClosedError());
    };
    source.on(event, onEvent);
    if (source !== out) source.on('error', onError);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

/** Writes one chunk and, when the stream's buffer is full, waits for 'drain' before returning. */
export async function writeChunk(out: Writable, chunk: string | Uint8Array): Promise<void> {
  assertOpen(out);
  if (!out.write(chunk)) await waitFor(out, 'drain', out);
}

/** Chunk size that keeps write() calls few while bounding memory per batch. */
export const CHUNK_CHARS = 64 * 1024;

/**
 * Writes `records` (objects, or their JSON text) as text, `render(record, n)` each (n counts records
 * written before it by this renderer), in chunks of about CHUNK_CHARS. `onWritten` is called after each
 * chunk is handed over, with how many records it held, so a renderer's count never runs ahead of its output.
 */
export async function writeRecords<T>(
  out: Writable,
  records: readonly T[],
  firstIndex: number,
  render: (record: T, index: number) => string,
  onWritten: (count: number) => void,
): Promise<void> {
  let chunk = '';
  let pending = 0;
  for (const record of records) {
    chunk += render(record, firstIndex + pending);
    pending++;
    if (chunk.length >= CHUNK_CHARS) {
      await writeChunk(out, chunk);
      onWritten(pending);
      firstIndex += pending;
      chunk = '';
      pending = 0;
    }
  }
  if (chunk) {
    await writeChunk(out, chunk);
    onWritten(pending);
  }
}
