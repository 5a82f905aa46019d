// `match --open-cases`: each catalogue row's identity (--key, a key column, else its line), and one case per new match pair.
import type { ArchiveStore, CaseCandidate } from '../../archive/index.js';
import type { Catalogue, CatalogueRow } from '../../match/catalogue.js';
import type { Match } from '../../match/matcher.js';
import { counted } from '../../output/numbers.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { dueAt, type Sla } from './sla.js';

/** Columns that identify a product, looked for in this order (case ignored) when --key is not given. */
const KEY_COLUMNS = ['sku', 'id', 'ref', 'our_ref', 'article'] as const;

/** The actor of the opened events. */
const MATCH_ACTOR = 'recall-feed match';

/** The column named by --key (exactly, else ignoring case), or the first key column found; undefined for none. */
export function keyColumn(catalogue: Pick<Catalogue, 'headers'>, flag: string | undefined): string | undefined {
  const find = (name: string) =>
    catalogue.headers.find((h) => h === name) ?? catalogue.headers.find((h) => h.toLowerCase() === name.toLowerCase());
  if (flag !== undefined) {
    const found = find(flag);
    if (found === undefined)
      throw new UsageError(
        `--key ${flag}: the catalogue has no such column`,
        `its columns: ${catalogue.headers.slice(0, 20).join(', ')}`,
      );
    return found;
  }
  for (const name of KEY_COLUMNS) {
    const found = find(name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** How a row is known to its cases: `<column>:<value>`, or `line:<n>` without a key column (or with an empty key). */
export function rowKey(row: CatalogueRow, column: string | undefined): string {
  const value = column === undefined ? '' : (row.values[column] ?? '').trim();
  return value === '' ? `line:${row.line}` : `${column}:${value}`;
}

function warnNoKeyColumn(column: string | undefined, status: StatusReporter): void {
  if (column === undefined)
    status.warn(
      `no key column (${KEY_COLUMNS.join(', ')}) in the catalogue: rows are known by their line number, so a reordered catalogue opens new cases; name one with --key`,
    );
}

/**
 * Each row's `rowKey`, counting the rows known by their line (an empty key) and the rows sharing a key with an earlier
 * one (one case for them all). A row seen again (for another recall) counts once.
 */
export class RowKeys {
  private readonly lineOf = new Map<string, number>();
  private readonly empty = new Set<number>();
  private readonly shared = new Set<number>();

  constructor(private readonly column: string | undefined) {}

  readonly keyOf = (row: CatalogueRow): string => {
    const key = rowKey(row, this.column);
    if (this.column !== undefined && key === `line:${row.line}`) this.empty.add(row.line);
    const first = this.lineOf.get(key);
    if (first === undefined) this.lineOf.set(key, row.line);
    else if (first !== row.line) this.shared.add(row.line);
    return key;
  };

  /** What the counts say; `among` names the rows counted when they were not all the catalogue's. */
  warnings(among = ''): string[] {
    const { empty, shared, column } = this;
    const out: string[] = [];
    if (empty.size > 0)
      out.push(`${counted(empty.size, 'row has', 'rows have')} no ${column}: known by line number instead${among}`);
    if (shared.size > 0)
      out.push(
        `${counted(shared.size, 'row shares', 'rows share')} a ${column} with an earlier row: they share its cases${among}`,
      );
    return out;
  }
}

/** Every row of a catalogue held whole keyed, and what that counted warned: rows known by their line, keys shared. */
function countedKeys(catalogue: Catalogue, column: string | undefined, status: StatusReporter): RowKeys {
  const keys = new RowKeys(column);
  for (const row of catalogue.rows) keys.keyOf(row);
  for (const warning of keys.warnings()) status.warn(warning);
  return keys;
}

/** Each row's `rowKey` in a catalogue held whole. Warns once about line numbers and about shared keys. */
export function rowKeys(catalogue: Catalogue, column: string | undefined, status: StatusReporter) {
  warnNoKeyColumn(column, status);
  return countedKeys(catalogue, column, status).keyOf;
}

/**
 * What rowKeys warns of a catalogue held whole, for one read again (a watch's catalogue replaced), counted in the new
 * file alone. A missing key column was said at the start (its columns cannot change while a watch runs).
 */
export function sayRowKeys(catalogue: Catalogue, key: string | undefined, status: StatusReporter): void {
  countedKeys(catalogue, keyColumn(catalogue, key), status);
}

/** The levels that open a case when --level is not given. */
const CASE_LEVELS = ['match', 'possible'] as const;

export interface OpenerOptions {
  /** Only these levels open a case (match --open-cases --level). */
  levels?: readonly string[] | undefined;
  /** Each case's deadline, from its recall's published_at. */
  sla?: Sla | undefined;
  /** The catalogue's product-name column, kept with each case. */
  nameColumn?: string | undefined;
}

/** Gathers the match pairs of a run, then opens the new ones in one transaction. */
export class CaseOpener {
  private readonly pairs = new Map<string, CaseCandidate>();
  constructor(
    private readonly keyOf: (row: CatalogueRow) => string,
    private readonly opts: OpenerOptions = {},
    /** Says what a streamed catalogue's keys counted, before the cases' line (streamedCaseOpener). */
    private readonly sayKeys?: () => void,
  ) {}

  add(match: Match, recall: Record<string, unknown>): void {
    if (typeof recall.id !== 'number') return;
    if (this.opts.levels && !this.opts.levels.includes(match.level)) return;
    const catalogKey = this.keyOf(match.row);
    const id = `${catalogKey}\u0000${recall.id}`;
    if (this.pairs.has(id)) return;
    this.pairs.set(id, {
      recallId: recall.id,
      catalogKey,
      level: match.level,
      reason: match.reason,
      catalogRow: match.row.values,
      alertTitle: typeof recall.alert_title === 'string' ? recall.alert_title : null,
      dueAt: this.opts.sla ? (dueAt(this.opts.sla, recall.published_at) ?? null) : null,
      sla: this.opts.sla?.text ?? null,
      productName: this.opts.nameColumn ? match.row.values[this.opts.nameColumn]?.trim() || null : null,
    });
  }

  /** Whether this run has recorded its levels in the archive yet (once is enough, even with nothing to open). */
  private levelsRecorded = false;

  /**
   * Opens what was gathered since the last flush; says how many were opened (and how many had a case). The levels
   * cases are opened at are recorded with the first flush, so the report knows which pairs were left by choice.
   */
  async flush(archive: ArchiveStore, atMs: number): Promise<{ opened: number; existing: number }> {
    this.sayKeys?.();
    const candidates = [...this.pairs.values()];
    this.pairs.clear();
    if (candidates.length === 0 && this.levelsRecorded) return { opened: 0, existing: 0 };
    const levels = this.levelsRecorded ? undefined : (this.opts.levels ?? CASE_LEVELS);
    const by = { at: new Date(atMs).toISOString(), actor: MATCH_ACTOR, note: null };
    const counts = await archive.openCases(candidates, by, levels);
    this.levelsRecorded = true;
    return counts;
  }
}

export function casesLine(counts: { opened: number; existing: number }): string {
  return `cases: ${counted(counts.opened, 'opened', 'opened')} · ${counted(counts.existing, 'pair', 'pairs')} already had one`;
}

/** The opener of a `match --open-cases` run, its key column checked (a missing --key column is a usage error). */
export function caseOpener(
  catalogue: Catalogue,
  key: string | undefined,
  status: StatusReporter,
  opts: OpenerOptions = {},
): CaseOpener {
  return new CaseOpener(rowKeys(catalogue, keyColumn(catalogue, key), status), {
    ...opts,
    nameColumn: catalogue.columns.name,
  });
}

/**
 * The opener of `match --archive --open-cases` over a catalogue that streams: `column` is keyColumn's, from its header.
 * Each row's key is worked out as its pairs are offered, so the warnings count the rows that found a recall.
 */
export function streamedCaseOpener(
  head: Pick<Catalogue, 'columns'>,
  column: string | undefined,
  status: StatusReporter,
  opts: OpenerOptions = {},
): CaseOpener {
  warnNoKeyColumn(column, status);
  const keys = new RowKeys(column);
  // A watch flushes at every poll: each count is said when it is new, not again.
  const said = new Set<string>();
  const say = () => {
    for (const warning of keys.warnings(', among the rows that found a recall'))
      if (!said.has(warning)) {
        said.add(warning);
        status.warn(warning);
      }
  };
  return new CaseOpener(keys.keyOf, { ...opts, nameColumn: head.columns.name }, say);
}
