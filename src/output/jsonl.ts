// JSON Lines renderer: one compact JSON object per line, each batch written as soon as it arrives.
import { writeRecords } from './backpressure.js';
import { escapeJsonControls, jsonText } from './control-escapes.js';
import type { Renderer, RenderOptions } from './render-contract.js';

export class JsonlRenderer implements Renderer {
  readonly #out: RenderOptions['out'];
  #count = 0;

  constructor(opts: Pick<RenderOptions, 'out'>) {
    this.#out = opts.out;
  }

  get count(): number {
    return this.#count;
  }

  write(records: readonly Record<string, unknown>[]): Promise<void> {
    return this.#lines(records, jsonText);
  }

  writeJson(texts: readonly string[]): Promise<void> {
    return this.#lines(texts, escapeJsonControls);
  }

  async #lines<T>(records: readonly T[], json: (record: T) => string): Promise<void> {
    await writeRecords(
      this.#out,
      records,
      this.#count,
      (record) => `${json(record)}\n`,
      (n) => {
        this.#count += n;
      },
    );
  }

  async end(): Promise<void> {
    // Lines are complete as written: nothing to close.
  }
}
