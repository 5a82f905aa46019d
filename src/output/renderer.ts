// The factory that picks the renderer of a format; the contract they share is in render-contract.ts.
import { CsvRenderer } from './csv.js';
import { JsonRenderer } from './json.js';
import { JsonlRenderer } from './jsonl.js';
import { ParquetRenderer } from './parquet.js';
import { TableRenderer } from './table.js';

import type { Format } from './formats.js';
import type { Renderer, RenderOptions } from './render-contract.js';

export { FORMATS, formatSpec, isFormat, type Format } from './formats.js';
export type { ColorLevel, ColumnKind, Renderer, RenderOptions } from './render-contract.js';

/** Each format's renderer; the registry of names and capabilities is formats.ts. */
const RENDERERS: Record<Format, (opts: RenderOptions) => Renderer> = {
  jsonl: (opts) => new JsonlRenderer(opts),
  json: (opts) => new JsonRenderer(opts),
  csv: (opts) => new CsvRenderer(opts),
  table: (opts) => new TableRenderer(opts),
  parquet: (opts) => new ParquetRenderer(opts),
};

export function createRenderer(opts: RenderOptions): Renderer {
  const create = RENDERERS[opts.format];
  if (!create) throw new TypeError(`unknown output format: ${String(opts.format)}`);
  return create(opts);
}
