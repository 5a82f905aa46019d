// Counts by field on PostgreSQL, ordered and typed as the SQLite engine's are (null, numbers, then text by bytes).
import type pg from 'pg';
import { STAT_COLUMNS, type StatColumn } from '../record-columns.js';
import type { StatsField } from '../stats-fields.js';
import { statsSources } from '../stats-sources.js';
import type { ArchiveQuery, StatsResult, ValueCount } from '../store.js';
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
 * A field's value over `recalls r`, with what it joins and, for a list, the condition that the field is there; `label`
 * turns a grouped key into the value shown (a time bucket is grouped as a number and formatted once per bucket).
 */
type Source = { value: string; join: string; present?: string; label?: (key: string) => string };
/** json_each in SQLite: an array's elements, a scalar (JSON null too) as itself, nothing for a missing field. */
const elements = (json: string, present: string): Source => ({
  value: 'e.value',
  join: ` CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(${json})
            WHEN 'array' THEN ${json} ELSE jsonb_build_array(${json}) END) AS e`,
  present,
});
/**
 * The whole days or hours since the epoch, floored, of published_us's whole seconds (truncated, as SQLite's
 * `published_us / 1000000` is), formatted once per bucket: formatting every row's timestamp was a fifth of the count.
 */
const bucket = (unit: 'day' | 'hour', format: string): Source => {
  const [seconds, interval] = unit === 'day' ? [86400, '1 day'] : [3600, '1 hour'];
  const s = '(r.published_us / 1000000)';
  return {
    value: `(${s} / ${seconds} - (${s} % ${seconds} < 0)::int)`,
    join: '',
    label: (key) => `to_jsonb(to_char(timestamp 'epoch' + ${key} * interval '${interval}', '${format}'))`,
  };
};
/** A field's value, read from its small stat_* column (jsonb, NULL when the record has no such field). */
const scalar = (name: StatColumn): Source => ({ value: `r.stat_${name}`, join: '' });
const each = (name: StatColumn): Source => elements(`r.stat_${name}`, `r.stat_${name} IS NOT NULL`);

/** The source column and the time buckets, read alike from columns and raw. */
const COMMON = {
  source: { value: 'r.data_source', join: '' },
  day: bucket('day', 'YYYY-MM-DD'),
  hour: bucket('hour', 'YYYY-MM-DD"T"HH24:00'),
};
/** How each field is read from a row of `recalls r`: columns only, never the raw JSON. */
const SOURCES = statsSources<Source>({ ...COMMON, scalar, each });

/** A schema older than v5 opened read-only has no stat_* columns: the same fields read from raw. */
const rawScalar = (name: StatColumn): Source => ({ value: `${RAW} -> '${STAT_COLUMNS[name]}'`, join: '' });
const rawEach = (name: StatColumn): Source =>
  elements(`${RAW} -> '${STAT_COLUMNS[name]}'`, `${RAW} ? '${STAT_COLUMNS[name]}'`);
const RAW_SOURCES = statsSources<Source>({ ...COMMON, scalar: rawScalar, each: rawEach });

/** A JSON value as SQLite's json_extract hands it over: true as 1, objects and arrays as their JSON text. */
function asSqlite(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** SQLite's order of values: NULL, then numbers, then text compared byte by byte (UTF-8). */
function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown) => (v === null ? 0 : typeof v === 'number' ? 1 : 2);
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return 0;
}

function settle(rows: { value: unknown; count: number }[]): ValueCount[] {
  const merged = new Map<unknown, number>();
  for (const row of rows) {
    const value = asSqlite(row.value);
    merged.set(value, (merged.get(value) ?? 0) + row.count);
  }
  return [...merged]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || compareValues(a.value, b.value));
}

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
  // (recalls' rows are wide: the tsvector is inline); a list field's elements need a join of their own.
  const scalars = by.filter((f) => sources[f].join === '');
  const sets = [...scalars.map((_, i) => `(k${i})`), '()'].join(', ');
  const label = (f: StatsField, key: string) => sources[f].label?.(key) ?? key;
  const marks = scalars.map((f, i) => `GROUPING(k${i}) AS g${i}, ${label(f, `k${i}`)} AS f${i}`).join(', ');
  const exprs = scalars.map((f, i) => `${sources[f].value} AS k${i}`).join(', ');
  const grouped = await client.query<Record<string, unknown> & { count: number }>(
    `SELECT ${marks}${marks ? ', ' : ''}count(*)::int AS count
       FROM (SELECT ${exprs || '1 AS one'} FROM ${from} WHERE ${where}) AS t GROUP BY GROUPING SETS (${sets})`,
    params,
  );
  let total = 0;
  const rows = new Map<StatsField, { value: unknown; count: number }[]>(scalars.map((f) => [f, []]));
  for (const row of grouped.rows) {
    const i = scalars.findIndex((_, k) => row[`g${k}`] === 0);
    if (i < 0) total = row.count;
    else rows.get(scalars[i] as StatsField)?.push({ value: row[`f${i}`], count: row.count });
  }
  const counts: StatsResult['counts'] = {};
  for (const field of by) {
    const { value, join, present } = sources[field];
    if (join === '') {
      counts[field] = settle(rows.get(field) ?? []);
      continue;
    }
    const result = await client.query<{ value: unknown; count: number }>(
      `SELECT ${value} AS value, count(*)::int AS count FROM ${from}${join}
       WHERE ${where}${present ? ` AND ${present}` : ''} GROUP BY 1`,
      params,
    );
    counts[field] = settle(result.rows);
  }
  return { total, counts };
}
