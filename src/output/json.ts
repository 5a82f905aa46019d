// JSON renderer: one array streamed record by record ("[\n", ",\n" between, "\n]\n"), never collected.
import { writeChunk, writeRecords } from './backpressure.js';
import { escapeJsonControls, jsonText } from './control-escapes.js';
import type { Renderer, RenderOptions } from './render-contract.js';

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

  write(records: readonly Record<string, unknown>[]): Promise<void> {
    return this.#elements(records, jsonText);
  }

  writeJson(texts: readonly string[]): Promise<void> {
    return this.#elements(texts, escapeJsonControls);
  }

  async #elements<T>(records: readonly T[], json: (record: T) => string): Promise<void> {
    if (this.#ended) throw new Error('write() after end()');
    await writeRecords(
      this.#out,
      records,
      this.#count + this.#resumeCount,
      (record, index) => `${index === 0 ? '[\n' : ',\n'}${json(record)}`,
      (n) => {
        this.#count += n;
      },
    );
  }

  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const empty = this.#count === 0 && this.#resumeCount === 0;
    await writeChunk(this.#out, empty ? '[]\n' : '\n]\n');
  }
}
