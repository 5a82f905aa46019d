// The rows `match` writes: the tier, the catalogue row as read, and what identifies the recall.
import { severityRank } from '../../output/severity-order.js';
import { counted, groupDigits } from '../../output/numbers.js';
import type { Catalogue } from '../../match/catalogue.js';
import { type Role, unreadColumns } from '../../match/catalogue-columns.js';
import type { Match, RejectedCode } from '../../match/matcher.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';

/** Written before the catalogue's own columns. */
const LEAD = ['level', 'reason', 'catalog_line'] as const;
/** Written after them, named as the API names them. */
const RECALL = ['recall_id', 'alert_title', 'risk_severity', 'data_source', 'published_at', 'source_url'] as const;
/** Last: whether the row's lot and date are among the notice's, the notice's words that say so, and (--explain) why it matched. */
const SCOPE = ['scope', 'scope_evidence'] as const;
const EXPLAIN = 'explain';

/**
 * A catalogue column whose name we use ourselves keeps its value under `catalog.<name>`; so does one whose name starts
 * `catalog.` itself, so no two columns ever share a key (`level` and `catalog.level` are `catalog.level` and
 * `catalog.catalog.level`).
 */
function catalogueKey(header: string): string {
  return (LEAD as readonly string[]).includes(header) ||
    (RECALL as readonly string[]).includes(header) ||
    (SCOPE as readonly string[]).includes(header) ||
    header === EXPLAIN ||
    header.startsWith('catalog.')
    ? `catalog.${header}`
    : header;
}

/** Every column of a match row, in order: csv header and the full table. */
export function matchColumns(catalogue: Pick<Catalogue, 'headers'>, explain = false): string[] {
  return [...LEAD, ...catalogue.headers.map(catalogueKey), ...RECALL, ...SCOPE, ...(explain ? [EXPLAIN] : [])];
}

/**
 * What a table shows on a terminal: the tier and scope, the catalogue's identifying columns (the product's name first,
 * else its model or barcode), the recall's severity and title, the evidence.
 */
export function matchTableColumns(catalogue: Pick<Catalogue, 'columns'>, explain = false): string[] {
  const { gtin, brand, model, name, lot, best_before } = catalogue.columns;
  const own = [name ?? model ?? gtin, brand, lot, best_before]
    .filter((c): c is string => c !== undefined)
    .map(catalogueKey);
  return [
    'level',
    'reason',
    'scope',
    'catalog_line',
    ...own,
    'risk_severity',
    'recall_id',
    'alert_title',
    'scope_evidence',
    ...(explain ? [EXPLAIN] : []),
  ];
}

/** Matches, then possibles, then excluded rows (and any other level last). */
const LEVEL_ORDER = ['match', 'possible', 'excluded'];
export const levelRank = (row: { level?: unknown }) => {
  const i = LEVEL_ORDER.indexOf(String(row.level));
  return i === -1 ? LEVEL_ORDER.length : i;
};

/** The order a table is read in: level, then the recall's severity (worst first); otherwise as found (a stable sort). */
export function byLevelThenSeverity(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return levelRank(a) - levelRank(b) || severityRank(a) - severityRank(b);
}

export function matchRow(match: Match, recall: Record<string, unknown>, explain = false): Record<string, unknown> {
  // Keyed by the catalogue's headers, which are data ("__proto__", "constructor"): no prototype to collide with.
  const row: Record<string, unknown> = Object.assign(Object.create(null), {
    level: match.level,
    reason: match.reason,
    catalog_line: match.row.line,
  });
  for (const [header, value] of Object.entries(match.row.values)) row[catalogueKey(header)] = value;
  row.recall_id = recall.id ?? null;
  for (const field of RECALL.slice(1)) row[field] = recall[field] ?? null;
  row.scope = match.scope;
  row.scope_evidence = match.scopeEvidence;
  if (explain) row.explain = match.explain;
  return row;
}

/**
 * The catalogue row a match row was made from, by the catalogue's headers: what matchRow copied, each value under its
 * header again (a header that names one of our columns is read from `catalog.<name>`).
 */
export function catalogueValues(row: Record<string, unknown>, headers: readonly string[]): Record<string, string> {
  const values: Record<string, string> = Object.create(null);
  for (const header of headers) {
    const value = row[catalogueKey(header)];
    if (typeof value === 'string') values[header] = value;
  }
  return values;
}

/** What a role's column holds, in the warning about a second one. */
const ROLE_WORDS: Record<Role, string> = {
  gtin: 'barcodes',
  brand: 'brands',
  model: 'models',
  name: 'names',
  lot: 'lots',
  best_before: 'best-before dates',
};

/** Rejected codes listed one per line up to here; the rest are counted. */
const MAX_REJECTED_LINES = 20;

/**
 * What the user should know about the catalogue as read, on stderr: an encoding guessed, repeated
 * columns, and each barcode with a wrong check digit (never matched). Its text is the file's; the status reporter prints it without control codes.
 */
export function reportCatalogue(
  catalogue: Omit<Catalogue, 'rows'>,
  rejected: readonly RejectedCode[],
  status: Pick<StatusReporter, 'warn'>,
  /** All the rejected and unchecked codes, when `rejected` lists only the first (a streamed catalogue). */
  total = rejected.length,
): void {
  const { file } = catalogue;
  if (catalogue.readAs === 'windows-1252') {
    status.warn(
      `${file} is not UTF-8: read as Windows-1252 (Western European); if accents look wrong, save it as UTF-8`,
    );
  }
  for (const r of catalogue.repeated) {
    const differ =
      r.conflicts === 0 ? '' : `; in ${counted(r.conflicts, 'row', 'rows')} they differ and only the first is read`;
    status.warn(
      `catalogue column '${r.header}' appears ${r.positions.length} times (columns ${r.positions.join(', ')}): each row reads its first non-empty value${differ}`,
    );
  }
  for (const u of unreadColumns(catalogue.headers, catalogue.columns)) {
    status.warn(
      `catalogue column '${u.header}' is not read: the ${ROLE_WORDS[u.role]} come from '${u.read}' (--map ${u.role}=${u.header} reads it instead)`,
    );
  }
  const ragged = catalogue.ragged;
  if (ragged !== undefined && ragged.rows > 0) {
    const more = ragged.rows > ragged.lines.length ? ` and ${groupDigits(ragged.rows - ragged.lines.length)} more` : '';
    const rows = `catalogue ${ragged.rows === 1 ? 'row' : 'rows'} ${ragged.lines.join(', ')}${more}`;
    status.warn(
      `${rows}: not the header's ${ragged.header} cells (a comma in an unquoted value?); read as they fall, and their lot and date never exclude them: quote such values`,
    );
  }
  for (const r of rejected.slice(0, MAX_REJECTED_LINES)) {
    status.warn(
      r.unchecked
        ? `catalogue row ${r.line}: barcode '${r.value}' has a ${r.reason}: only the identical code in a notice matches it, as possible (barcode-unchecked)`
        : `catalogue row ${r.line}: barcode '${r.value}' rejected (${r.reason}); it is never matched`,
    );
  }
  if (total > MAX_REJECTED_LINES) {
    status.warn(`… and ${groupDigits(total - MAX_REJECTED_LINES)} more barcodes rejected or unchecked`);
  }
}
