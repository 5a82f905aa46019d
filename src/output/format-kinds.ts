// What each kind of output can be written as: record, digest and report formats, each with its -o extensions, in one table.
import { FORMAT_SPECS, FORMATS } from './formats.js';

/** The three kinds of output a command writes: records (feed, query...), a digest, a report. */
export type FormatKind = 'record' | 'digest' | 'report';

/** Each kind's formats, in the order help lists them, with the `-o` extensions (lower case, with the dot) that pick them. */
export const FORMAT_EXTENSIONS = {
  record: Object.fromEntries(FORMATS.map((f) => [f, FORMAT_SPECS[f].extensions])) as Record<
    keyof typeof FORMAT_SPECS,
    readonly string[]
  >,
  digest: { text: ['.txt'], markdown: ['.md', '.markdown'], html: ['.html', '.htm'], json: ['.json'] },
  report: { html: ['.html', '.htm'], json: ['.json'], csv: ['.csv'], markdown: ['.md', '.markdown'] },
} as const satisfies Record<FormatKind, Record<string, readonly string[]>>;

export type DigestFormat = keyof typeof FORMAT_EXTENSIONS.digest;
export type ReportFormat = keyof typeof FORMAT_EXTENSIONS.report;

/** The digest's formats, in the order help lists them. */
export const DIGEST_FORMATS = Object.keys(FORMAT_EXTENSIONS.digest) as readonly DigestFormat[];
/** The report's formats, in the order help lists them. */
export const REPORT_FORMATS = Object.keys(FORMAT_EXTENSIONS.report) as readonly ReportFormat[];

/** Other names -f takes for a kind's format (`md` for markdown), as users typed them before. */
const ALIASES: Record<FormatKind, Record<string, string>> = {
  record: {},
  digest: { md: 'markdown', txt: 'text', table: 'text' },
  report: { md: 'markdown' },
};

/** The kind's format name `raw` stands for (trimmed, any case, aliases resolved); not checked against the kind. */
export function canonicalFormat(kind: FormatKind, raw: string): string {
  const name = raw.trim().toLowerCase();
  return ALIASES[kind][name] ?? name;
}

/** The format among `formats` (of `kind`) that a file extension (`.md`, with the dot, any case) picks; undefined for none. */
export function formatOfKindExtension<F extends string>(
  kind: FormatKind,
  formats: readonly F[],
  ext: string,
): F | undefined {
  const table: Record<string, readonly string[]> = FORMAT_EXTENSIONS[kind];
  const lower = ext.toLowerCase();
  return formats.find((f) => table[f]?.includes(lower));
}

/** `raw` (any case, an alias such as `md`) as one of `formats` of `kind`; undefined when it is none of them. */
export function kindFormat<F extends string>(kind: FormatKind, formats: readonly F[], raw: string): F | undefined {
  const name = canonicalFormat(kind, raw);
  return formats.find((f) => f === name);
}

/** Names any text, not one format: it picks the digest's text, and a record command writes its usual format under it. */
const ANY_TEXT = '.txt';

/** Whether an extension names a format some kind writes: one a command that does not write it must refuse. */
export function isKnownExtension(ext: string): boolean {
  const lower = ext.toLowerCase();
  if (lower === ANY_TEXT) return false;
  return Object.values(FORMAT_EXTENSIONS).some((table) =>
    Object.values(table).some((exts: readonly string[]) => exts.includes(lower)),
  );
}

/** The `-o` extensions `formats` (of `kind`) are written under, in order, each once. */
export function extensionsOf(kind: FormatKind, formats: readonly string[]): string[] {
  const table: Record<string, readonly string[]> = FORMAT_EXTENSIONS[kind];
  return [...new Set(formats.flatMap((f) => table[f] ?? []))];
}
