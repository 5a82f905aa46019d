// The record formats, as config validation, completion, help and the plans ask for them: a view of format-registry.ts.
import { findFormat, type OutputFormat, RECORD_FORMAT_NAMES } from './format-registry.js';

export type { FormatCapabilities } from './format-registry.js';

/** A record format's capabilities and description. */
export type FormatSpec = OutputFormat;

/** A record format's name (one registered in format-registry.ts). */
export type Format = string;

/** Every record format's name, in the order help lists them (the registry's, kept current). */
export const FORMATS: readonly Format[] = RECORD_FORMAT_NAMES;

export function isFormat(value: string): value is Format {
  return findFormat(value)?.kind === 'records';
}

/** A record format's capabilities and description. */
export function formatSpec(format: Format): FormatSpec {
  const found = findFormat(format);
  if (found?.kind !== 'records') throw new TypeError(`${format} is not a record format`);
  return found;
}

/** The record format a file extension (`.csv`, with the dot, any case) asks for; undefined for none. */
export function formatOfExtension(ext: string): Format | undefined {
  const lower = ext.toLowerCase();
  return FORMATS.find((f) => formatSpec(f).extensions.includes(lower));
}
