// JSON renderer: one array streamed record by record ("[\n", ",\n" between, "\n]\n"), never collected.
import { CHUNK_CHARS, writeChunk } from './backpressure.js';
import type { Renderer, RenderOptions } from './renderer.js';

export class JsonRenderer implements Renderer {
  readonly #out: RenderOptions['out'];
  readonly #resumeCount: number;
  #count = 0;
  #ended = false;

  constructor(opts: Pick<RenderOptions, 'out' | 'resumeCount'>) {
    this.#out = opts.out;
    this.#resumeCount = Math.max(0, opts.resumeCount ?? 0);
  }

  get count(): number {
    return this.#count;
  }

  async write(records: readonly Record<string, unknown>[]): Promise<void> {
    if (this.#ended) throw new Error('write() after end()');
    let chunk = '';
    let pending = 0;
    for (const record of records) {
      const first = this.#count + pending === 0 && this.#resumeCount === 0;
      chunk += `${first ? '[\n' : ',\n'}${JSON.stringify(record)}`;
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
    if (this.#ended) return;
    this.#ended = true;
    const empty = this.#count === 0 && this.#resumeCount === 0;
    await writeChunk(this.#out, empty ? '[]\n' : '\n]\n');
  }
}
