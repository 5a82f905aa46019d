// Counts by field on PostgreSQL, ordered and typed as the SQLite engine's are (null, numbers, then text by bytes).
import type pg from 'pg';
import type { StatsField } from '../stats-fields.js';
import type { ArchiveQuery, StatsResult, ValueCount } from '../store.js';
import { rawJsonb } from './pg-text.js';
import { cursorRows, selection } from './select.js';

/** The record as jsonb, a stored NUL (\u0000) cast as U+FFFD: see pg-text.ts. */
const RAW = rawJsonb('r');

const scalar = (field: string) => ({ value: `${RAW} -> '${field}'`, join: '' });
/** json_each in SQLite: an array's elements, a scalar (JSON null too) as itself, nothing for a missing field. */
const each = (field: string) => ({
  value: 'e.value',
  join: ` CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(${RAW} -> '${field}')
            WHEN 'array' THEN ${RAW} -> '${field}' ELSE jsonb_build_array(${RAW} -> '${field}') END) AS e
         WHERE ${RAW} ? '${field}'`,
});
const bucket = (format: string) => ({
  value: `to_jsonb(to_char(timestamp 'epoch' + (r.published_us / 1000000) * interval '1 second', '${format}'))`,
  join: '',
});

const SOURCES: Record<StatsField, { value: string; join: string }> = {
  source: scalar('data_source'),
  severity: scalar('risk_severity'),
  risk: each('risk_types'),
  category: scalar('product_category'),
  brand: scalar('product_brand'),
  country: scalar('country_of_origin'),
  jurisdiction: each('geo_jurisdictions'),
  status: scalar('alert_status'),
  day: bucket('YYYY-MM-DD'),
  hour: bucket('YYYY-MM-DD"T"HH24:00'),
};

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
  s: string,
  q: ArchiveQuery,
  by: readonly StatsField[],
): Promise<StatsResult> {
  const sel = selection(q);
  let from = `(SELECT r.id FROM ${s}.recalls r WHERE ${sel.where})`;
  let params = sel.params;
  if (sel.residual) {
    // Filters SQL cannot answer run on each record; the ids that pass become the selection.
    const ids: number[] = [];
    const rows = cursorRows<{ id: number; raw: string }>(
      client,
      `SELECT r.id, r.raw FROM ${s}.recalls r WHERE ${sel.where}`,
      sel.params,
    );
    for await (const row of rows) if (sel.residual(JSON.parse(row.raw) as Record<string, unknown>)) ids.push(row.id);
    from = '(SELECT unnest($1::bigint[]) AS id)';
    params = [ids];
  }
  const total = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from} AS s`, params);
  const counts: StatsResult['counts'] = {};
  for (const field of by) {
    const { value, join } = SOURCES[field];
    const result = await client.query<{ value: unknown; count: number }>(
      `SELECT ${value} AS value, count(*)::int AS count FROM ${from} AS s JOIN ${s}.recalls r ON r.id = s.id${join}
       GROUP BY 1`,
      params,
    );
    counts[field] = settle(result.rows);
  }
  return { total: total.rows[0]?.n ?? 0, counts };
}
