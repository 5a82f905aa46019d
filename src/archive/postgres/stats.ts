// Counts by field on PostgreSQL, grouped as SQLite groups them; stats-groups.ts folds and orders both engines' alike.
import type pg from 'pg';
import { STAT_COLUMNS, type StatColumn } from '../record-columns.js';
import type { StatsField } from '../stats-fields.js';
import { statsSources } from '../stats-sources.js';
import { foldedCounts, isRecordField, sortedCounts, type StoredCount } from '../stats-groups.js';
import type { ArchiveQuery, StatsResult } from '../store.js';
import { rawJsonb } from './pg-text.js';
import { STAT_COLUMNS_VERSION, STATS_TABLE_VERSION } from './schema.js';
import { selection } from '../features/selection.js';
import { filterParts } from '../query-parts.js';
import { inSnapshot } from './transactions.js';
import { cursorRows } from './cursor.js';
import { numbered } from './client.js';
import type { Dialect } from '../sql/client.js';

/** The record as jsonb, a stored NUL (\u0000) cast as U+FFFD: see pg-text.ts. */
const RAW = rawJsonb('r');

/**
 * A field's value over `recalls r`; `label` turns a grouped key into the value shown (a time bucket is grouped as a
 * number and formatted once per bucket).
 */
type Source = { value: string; label?: (key: string) => string };
/**
 * The whole days or hours since the epoch, floored, of published_us's whole seconds (truncated, as SQLite's
 * `published_us / 1000000` is), formatted once per bucket: formatting every row's timestamp was a fifth of the count.
 */
const bucket = (unit: 'day' | 'hour', format: string): Source => {
  const [seconds, interval] = unit === 'day' ? [86400, '1 day'] : [3600, '1 hour'];
  const s = '(r.published_us / 1000000)';
  return {
    value: `(${s} / ${seconds} - (${s} % ${seconds} < 0)::int)`,
    label: (key) => `to_jsonb(to_char(timestamp 'epoch' + ${key} * interval '${interval}', '${format}'))`,
  };
};
/** A record field's whole value (jsonb, NULL when absent) from its small stat_* column: folded after (stats-groups.ts). */
const stored = (name: StatColumn): Source => ({ value: `r.stat_${name}` });

/** The source column and the time buckets, read alike from columns and raw. */
const COMMON = {
  source: { value: 'r.data_source' },
  day: bucket('day', 'YYYY-MM-DD'),
  hour: bucket('hour', 'YYYY-MM-DD"T"HH24:00'),
};
/** How each field is read from a row of `recalls r`: columns only, never the raw JSON. */
const SOURCES = statsSources<Source>({ ...COMMON, stored });

/** A schema older than v5 opened read-only has no stat_* columns: the same values read from raw. */
const rawStored = (name: StatColumn): Source => ({ value: `${RAW} -> '${STAT_COLUMNS[name]}'` });
const RAW_SOURCES = statsSources<Source>({ ...COMMON, stored: rawStored });

/**
 * Memory for the counts' hash tables, this transaction only: the planner guesses a time bucket has as many values as
 * there are rows, and with the default 4 MB sorted a million rows on disk instead (most of stats' time at 200k).
 */
const COUNT_MEMORY = "SELECT set_config('work_mem', '64MB', true)";

/**
 * Whether this role may read recall_stats: a reader granted SELECT on the tables there were before v6 (docs/archive.md
 * asks for default privileges, but not every database has them) still gets its counts, from recalls.
 */
async function statsTable(client: pg.Client, d: Dialect, version: number): Promise<boolean> {
  if (version < STATS_TABLE_VERSION) return false;
  const { rows } = await client.query<{ ok: boolean }>("SELECT has_table_privilege($1, 'SELECT') AS ok", [
    d.t('recall_stats'),
  ]);
  return rows[0]?.ok === true;
}

/** A selection the counting table answers alone: no full text, no record filter (those read recalls' other columns). */
function narrow(q: ArchiveQuery): boolean {
  const parts = filterParts(q.filter);
  return q.search === undefined && parts.sql.length === 0 && !parts.residual;
}

export async function stats(
  client: pg.Client,
  d: Dialect,
  q: ArchiveQuery,
  by: readonly StatsField[],
  version: number,
): Promise<StatsResult> {
  const sources = version < STAT_COLUMNS_VERSION ? RAW_SOURCES : SOURCES;
  const sel = selection(d, q);
  // From v6 the counts read recall_stats (narrow rows) unless the selection needs recalls' other columns.
  const counting = d.t((await statsTable(client, d, version)) ? 'recall_stats' : 'recalls');
  let from = narrow(q) ? `${counting} r` : `${d.t('recalls')} r`;
  // The selection's `?` as $n: the counts below add no parameter of their own.
  let where = numbered(sel.where);
  let params = sel.params;
  if (sel.residual) {
    // Filters SQL cannot answer run on each record; the ids that pass become the selection.
    const ids: number[] = [];
    const rows = cursorRows<{ id: number; raw: string }>(
      client,
      `SELECT r.id, r.raw FROM ${d.t('recalls')} r WHERE ${where}`,
      sel.params,
    );
    for await (const batch of rows)
      for (const row of batch) if (sel.residual(JSON.parse(row.raw) as Record<string, unknown>)) ids.push(row.id);
    from = `(SELECT unnest($1::bigint[]) AS id) AS s JOIN ${counting} r ON r.id = s.id`;
    where = 'true';
    params = [ids];
  }
  return inSnapshot(client, async () => {
    await client.query(COUNT_MEMORY);
    return counted(client, sources, by, from, where, params);
  });
}

/** The total and each field's counts, in one snapshot. */
async function counted(
  client: pg.Client,
  sources: Record<StatsField, Source>,
  by: readonly StatsField[],
  from: string,
  where: string,
  params: unknown[],
): Promise<StatsResult> {
  // The total and every field read from the row itself in one scan (grouping sets), since each scan reads every row
  // (recalls' rows are wide: the tsvector is inline). A list is grouped whole, as a scalar is.
  const sets = [...by.map((_, i) => `(k${i})`), '()'].join(', ');
  const label = (f: StatsField, key: string) => sources[f].label?.(key) ?? key;
  const marks = by.map((f, i) => `GROUPING(k${i}) AS g${i}, ${label(f, `k${i}`)} AS f${i}`).join(', ');
  const exprs = by.map((f, i) => `${sources[f].value} AS k${i}`).join(', ');
  const grouped = await client.query<Record<string, unknown> & { count: number }>(
    `SELECT ${marks}${marks ? ', ' : ''}count(*)::int AS count
       FROM (SELECT ${exprs || '1 AS one'} FROM ${from} WHERE ${where}) AS t GROUP BY GROUPING SETS (${sets})`,
    params,
  );
  let total = 0;
  const rows = by.map((): StoredCount[] => []);
  for (const row of grouped.rows) {
    const i = by.findIndex((_, k) => row[`g${k}`] === 0);
    if (i < 0) total = row.count;
    else rows[i]?.push({ value: row[`f${i}`], count: row.count });
  }
  const counts: StatsResult['counts'] = {};
  by.forEach((field, i) => {
    counts[field] = isRecordField(field) ? foldedCounts(field, rows[i] ?? []) : sortedCounts(rows[i] ?? []);
  });
  return { total, counts };
}
