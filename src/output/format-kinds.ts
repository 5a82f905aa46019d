// What each kind of output can be written as: record, digest and report formats, named from the one registry.
import {
  allFormats,
  formatNamed,
  formatOfExtensionAmong,
  RECORD_FORMAT_NAMES,
  resolveFormat,
} from './format-registry.js';

/** The three kinds of output a command writes: records (feed, query...), a digest, a report. */
export type OutputKind = 'record' | 'digest' | 'report';

/** The digest's formats, in the order help lists them. */
export const DIGEST_FORMATS = ['text', 'markdown', 'html', 'json'] as const;
/** The report's formats, in the order help lists them. */
export const REPORT_FORMATS = ['html', 'json', 'csv', 'markdown'] as const;

/** A status answer's formats (health, doctor): a line or a table for people, or JSON. */
export const STATUS_FORMATS = ['table', 'json', 'jsonl'] as const;

export type DigestFormat = (typeof DIGEST_FORMATS)[number];
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Each kind's formats, in the order help lists them (the record formats: every one registered). */
export function formatsOf(kind: OutputKind): readonly string[] {
  if (kind === 'digest') return DIGEST_FORMATS;
  if (kind === 'report') return REPORT_FORMATS;
  return RECORD_FORMAT_NAMES;
}

/**
 * The format among `formats` (of the kind, which names them for the reader: aliases and extensions are the
 * formats' own) that a file extension (`.md`, with the dot, any case) picks; undefined for none.
 */
export function formatOfKindExtension<F extends string>(
  _kind: OutputKind,
  formats: readonly F[],
  ext: string,
): F | undefined {
  return formatOfExtensionAmong(formats, ext)?.name as F | undefined;
}

/** `raw` (any case, an alias such as `md`) as one of `formats` of the kind; undefined when it is none of them. */
export function kindFormat<F extends string>(_kind: OutputKind, formats: readonly F[], raw: string): F | undefined {
  return resolveFormat(formats, raw)?.name as F | undefined;
}

/** Names any text, not one format: it picks the digest's text, and a record command writes its usual format under it. */
export const ANY_TEXT = '.txt';

/**
 * Extensions of formats no record is written in: `-o x.json.gz` or `-o x.tsv` would get plain jsonl
 * under a name that promises something else. Other names (none, .txt, .out) take the usual format.
 */
export const COMPRESSED = new Set(['.gz', '.bz2', '.xz', '.zst', '.zip', '.7z', '.br', '.lz4', '.tgz']);
/** Formats no format in the registry writes (unless one is registered for the extension: the registry wins). */
export const FOREIGN = [
  ...['.tsv', '.tab', '.xlsx', '.xls', '.ods', '.xml', '.yaml', '.yml'],
  // Documents and images: `report -o report.pdf` wrote Markdown under a name a PDF reader cannot open.
  ...['.pdf', '.doc', '.docx', '.odt', '.rtf', '.ppt', '.pptx', '.png', '.jpg', '.jpeg', '.svg'],
];

/** Whether no command writes under `ext` (`.xlsx`, `.gz`): a document command refuses it as a record command does. */
export function neverWritten(ext: string): boolean {
  const lower = ext.toLowerCase();
  return COMPRESSED.has(lower) || FOREIGN.includes(lower);
}

/** Whether an extension names a format some kind writes: one a command that does not write it must refuse. */
export function isKnownExtension(ext: string): boolean {
  const lower = ext.toLowerCase();
  if (lower === ANY_TEXT) return false;
  return allFormats().some((f) => f.extensions.includes(lower));
}

/** The `-o` extensions `formats` are written under, in order, each once. */
export function extensionsOf(formats: readonly string[]): string[] {
  return [...new Set(formats.flatMap((f) => formatNamed(f).extensions))];
}
