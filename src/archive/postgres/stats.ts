// Counts by field on PostgreSQL, ordered and typed as the SQLite engine's are (null, numbers, then text by bytes).
import type pg from 'pg';
import { STAT_COLUMNS, type StatColumn } from '../record-columns.js';
import type { StatsField } from '../stats-fields.js';
import { statsSources } from '../stats-sources.js';
import type { ArchiveQuery, StatsResult, ValueCount } from '../store.js';
import { rawJsonb } from './pg-text.js';
import { STAT_COLUMNS_VERSION } from './schema.js';
import { selection } from '../features/selection.js';
import { cursorRows } from './cursor.js';
import { numbered } from './client.js';
import type { Dialect } from '../sql/client.js';

/** The record as jsonb, a stored NUL (\u0000) cast as U+FFFD: see pg-text.ts. */
const RAW = rawJsonb('r');

/** A field's value over `recalls r`, with what it joins and, for a list, the condition that the field is there. */
type Source = { value: string; join: string; present?: string };
/** json_each in SQLite: an array's elements, a scalar (JSON null too) as itself, nothing for a missing field. */
const elements = (json: string, present: string): Source => ({
  value: 'e.value',
  join: ` CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(${json})
            WHEN 'array' THEN ${json} ELSE jsonb_build_array(${json}) END) AS e`,
  present,
});
const bucket = (format: string): Source => ({
  value: `to_jsonb(to_char(timestamp 'epoch' + (r.published_us / 1000000) * interval '1 second', '${format}'))`,
  join: '',
});
/** A field's value, read from its small stat_* column (jsonb, NULL when the record has no such field). */
const scalar = (name: StatColumn): Source => ({ value: `r.stat_${name}`, join: '' });
const each = (name: StatColumn): Source => elements(`r.stat_${name}`, `r.stat_${name} IS NOT NULL`);

/** The source column and the time buckets, read alike from columns and raw. */
const COMMON = {
  source: { value: 'r.data_source', join: '' },
  day: bucket('YYYY-MM-DD'),
  hour: bucket('YYYY-MM-DD"T"HH24:00'),
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

export async function stats(
  client: pg.Client,
  d: Dialect,
  q: ArchiveQuery,
  by: readonly StatsField[],
  version: number,
): Promise<StatsResult> {
  const sources = version < STAT_COLUMNS_VERSION ? RAW_SOURCES : SOURCES;
  const sel = selection(d, q);
  let from = `${d.t('recalls')} r`;
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
    from = `(SELECT unnest($1::bigint[]) AS id) AS s JOIN ${d.t('recalls')} r ON r.id = s.id`;
    where = 'true';
    params = [ids];
  }
  // The total and every field read from the row itself in one scan (grouping sets), since the rows are wide (the
  // tsvector is inline) and each scan reads them all; a list field's elements need a join of their own.
  const scalars = by.filter((f) => sources[f].join === '');
  const sets = [...scalars.map((_, i) => `(f${i})`), '()'].join(', ');
  const marks = scalars.map((_, i) => `GROUPING(f${i}) AS g${i}, f${i}`).join(', ');
  const exprs = scalars.map((f, i) => `${sources[f].value} AS f${i}`).join(', ');
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
