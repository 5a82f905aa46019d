// The one format registry: every output format, record, document and status, in the order help lists them.
import { csvFormat } from './formats/csv.js';
import { htmlFormat } from './formats/html.js';
import { jsonFormat } from './formats/json.js';
import { jsonlFormat } from './formats/jsonl.js';
import { markdownFormat } from './formats/markdown.js';
import { parquetFormat } from './formats/parquet.js';
import { tableFormat } from './formats/table.js';
import { textFormat } from './formats/text.js';
import type { FormatKind, OutputFormat } from './output-format.js';

export type { DocumentPart, FormatCapabilities, FormatKind, OutputFormat } from './output-format.js';

/**
 * Every format. A new format is one file in `formats/` and one line here: -f, the -o extension, help,
 * completion, docs/commands.md and the error messages follow.
 */
const REGISTRY: OutputFormat[] = [
  tableFormat,
  jsonlFormat,
  jsonFormat,
  csvFormat,
  parquetFormat,
  textFormat,
  markdownFormat,
  htmlFormat,
];

/** The record formats' names, in help's order; kept current as formats are registered (FORMATS in formats.ts is it). */
export const RECORD_FORMAT_NAMES: string[] = REGISTRY.filter((f) => f.kind === 'records').map((f) => f.name);

/** Every format, in help's order. */
export function allFormats(): readonly OutputFormat[] {
  return REGISTRY;
}

/** The formats of a kind, in help's order. */
export function formatsOfKind(kind: FormatKind): OutputFormat[] {
  return REGISTRY.filter((f) => f.kind === kind);
}

/** The format named `name` exactly (no alias); undefined for none. */
export function findFormat(name: string): OutputFormat | undefined {
  return REGISTRY.find((f) => f.name === name);
}

/** The format named `name` (a format chosen already, so known): throws for a name no format has. */
export function formatNamed(name: string): OutputFormat {
  const format = findFormat(name);
  if (!format) throw new TypeError(`unknown output format: ${name}`);
  return format;
}

/**
 * The format among `names` that `raw` stands for: trimmed, any case, its name, else one of its aliases
 * (`md`; `table` for the digest's text, which writes no table); undefined when none.
 */
export function resolveFormat(names: readonly string[], raw: string): OutputFormat | undefined {
  const name = raw.trim().toLowerCase();
  const among = names.map(formatNamed);
  return among.find((f) => f.name === name) ?? among.find((f) => f.aliases.includes(name));
}

/** The format among `names` that a file extension (`.csv`, with the dot, any case) picks; undefined for none. */
export function formatOfExtensionAmong(names: readonly string[], ext: string): OutputFormat | undefined {
  const lower = ext.toLowerCase();
  return names.map(formatNamed).find((f) => f.extensions.includes(lower));
}

/** The record format used when none was asked for, on a terminal or not. */
export function defaultFormat(on: 'terminal' | 'pipe'): OutputFormat {
  const format = REGISTRY.find((f) => f.kind === 'records' && f.defaultOn === on);
  if (!format) throw new TypeError(`no record format is the default on a ${on}`);
  return format;
}

/**
 * Adds a format to the registry, for tests only (test/fixtures/tsv-format.ts): a format shipped is a line in
 * REGISTRY, above. Register before the command tree is built, so -f's list and the help include it.
 */
export function registerFormat(format: OutputFormat): () => void {
  if (findFormat(format.name)) throw new TypeError(`the format ${format.name} is registered already`);
  REGISTRY.push(format);
  if (format.kind === 'records') RECORD_FORMAT_NAMES.push(format.name);
  // Returns its undoing, for the test's cleanup.
  return () => {
    REGISTRY.splice(REGISTRY.indexOf(format), 1);
    const at = RECORD_FORMAT_NAMES.indexOf(format.name);
    if (at >= 0) RECORD_FORMAT_NAMES.splice(at, 1);
  };
}
