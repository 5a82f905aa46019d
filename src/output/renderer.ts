// The factory that makes the renderer of a format, loading it on first use; the contract they share is in render-contract.ts.
import { formatNamed } from './format-registry.js';
import type { Renderer, RenderOptions } from './render-contract.js';

export { FORMATS, formatSpec, isFormat, type Format } from './formats.js';
export type { ColorLevel, ColumnKind, Renderer, RenderOptions } from './render-contract.js';

/** A renderer of `opts.format` (a record format of the registry, format-registry.ts), its module loaded now. */
export async function createRenderer(opts: RenderOptions): Promise<Renderer> {
  const { load, name } = formatNamed(opts.format);
  if (!load) throw new TypeError(`the ${name} format has no record renderer`);
  return (await load()).createRenderer(opts);
}
