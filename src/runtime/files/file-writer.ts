// A Writable over an open file whose failures name the file and say why (disk full, pipe closed, ...).
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { cannotWrite } from './write-errors.js';

/** Writes the first `length` bytes of `data` whole: a pipe or a full disk may take less than it was given. */
export async function writeAll(handle: FileHandle, data: Buffer, length = data.length): Promise<void> {
  let offset = 0;
  while (offset < length) {
    const { bytesWritten } = await handle.write(data, offset, length - offset);
    offset += bytesWritten;
  }
}

export class FileWriter extends Writable {
  readonly #handle: FileHandle;
  readonly #shown: string;
  #closing: Promise<void> | undefined;

  /** `shown` is the name used in error messages. The handle is closed by close() or destroy(). */
  constructor(handle: FileHandle, shown: string) {
    super({ highWaterMark: 64 * 1024, decodeStrings: true, autoDestroy: false });
    this.#handle = handle;
    this.#shown = shown;
    // A failed write is kept (errored) for close() and the next write to report, naming the file. Heard here: a write
    // under the high-water mark has no caller waiting for 'drain', and an 'error' nobody hears ends the process.
    this.on('error', () => {});
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.#write(chunk, callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (err?: Error | null) => void): void {
    this.#write(Buffer.concat(chunks.map((c) => c.chunk)), callback);
  }

  #write(data: Buffer, callback: (err?: Error | null) => void): void {
    writeAll(this.#handle, data).then(
      () => callback(),
      (err: unknown) => callback(cannotWrite(this.#shown, err) as Error),
    );
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.#closeHandle().then(
      () => callback(err),
      () => callback(err),
    );
  }

  /** Ends the stream, waits until every byte reached the disk (the file is renamed into place next), and closes it. */
  async close(): Promise<void> {
    try {
      if (this.errored) throw this.errored;
      if (!this.writableEnded) this.end();
      await finished(this);
      await syncIfFile(this.#handle);
    } finally {
      await this.#closeHandle();
    }
  }

  /** Stops writing (what is buffered is dropped) and closes the file; never throws. */
  async abandon(): Promise<void> {
    this.destroy();
    await this.#closeHandle().catch(() => {});
  }

  #closeHandle(): Promise<void> {
    this.#closing ??= this.#handle.close();
    return this.#closing;
  }
}

/** fsync, where the file has a disk to reach: a device or a FIFO (-o /dev/stdout) answers EINVAL, and that is fine. */
async function syncIfFile(handle: FileHandle): Promise<void> {
  try {
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EROFS') throw err;
  }
}
