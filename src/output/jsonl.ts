// JSON Lines renderer: one compact JSON object per line, each batch written as soon as it arrives.
import { CHUNK_CHARS, writeChunk } from './backpressure.js';
import type { Renderer, RenderOptions } from './renderer.js';

export class JsonlRenderer implements Renderer {
  readonly #out: RenderOptions['out'];
  #count = 0;

  constructor(opts: Pick<RenderOptions, 'out'>) {
    this.#out = opts.out;
  }

  get count(): number {
    return this.#count;
  }

  async write(records: readonly Record<string, unknown>[]): Promise<void> {
    let chunk = '';
    let pending = 0;
    for (const record of records) {
      chunk += `${JSON.stringify(record)}\n`;
      pending++;
      if (chunk.length >= CHUNK_CHARS) {
        await writeChunk(this.#out, chunk);
        this.#count += pending;
        chunk = '';
        pending = 0;
      }
    }
    if (chunk) {
      await writeChunk(this.#out, chunk);
      this.#count += pending;
    }
  }

  async end(): Promise<void> {
    // Lines are complete as written: nothing to close.
  }
}
