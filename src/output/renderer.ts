// The factory that picks the renderer of a format; the contract they share is in render-contract.ts.
import { CsvRenderer } from './csv.js';
import { JsonRenderer } from './json.js';
import { JsonlRenderer } from './jsonl.js';
import { TableRenderer } from './table.js';

import type { Renderer, RenderOptions } from './render-contract.js';

export { FORMATS, isFormat, type Format } from './formats.js';
export type { ColorLevel, Renderer, RenderOptions } from './render-contract.js';

export function createRenderer(opts: RenderOptions): Renderer {
  switch (opts.format) {
    case 'jsonl':
      return new JsonlRenderer(opts);
    case 'json':
      return new JsonRenderer(opts);
    case 'csv':
      return new CsvRenderer(opts);
    case 'table':
      return new TableRenderer(opts);
    default: {
      const unknown: never = opts.format;
      throw new TypeError(`unknown output format: ${String(unknown)}`);
    }
  }
}
