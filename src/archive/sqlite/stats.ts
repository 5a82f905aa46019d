// Counts by field over the recalls a query selects; array fields count each element, day and hour bucket published_at.
import type Database from 'better-sqlite3';
import { STAT_COLUMNS, type StatColumn } from '../record-columns.js';
import type { StatsField } from '../stats-fields.js';
import { statsSources } from '../stats-sources.js';
import type { ArchiveQuery, StatsResult, ValueCount } from '../store.js';
import { STAT_COLUMNS_VERSION } from './schema.js';
import { selection } from '../features/selection.js';
import { sqliteDialect } from './dialect.js';

type Source = { value: string; join: string };
const bucket = (format: string): Source => ({
  value: `strftime('${format}', r.published_us / 1000000, 'unixepoch')`,
  join: '',
});
/** A field's value as json_extract over the record gives it, read from its small stat_* column (JSON text or NULL). */
const scalar = (name: StatColumn): Source => ({ value: `json_extract(r.stat_${name}, '$')`, join: '' });
/** json_each over the column: an array's elements, a scalar (JSON null too) as itself, nothing when absent. */
const each = (name: StatColumn): Source => ({ value: 'e.value', join: `, json_each(r.stat_${name}) AS e` });

/** The source column and the time buckets, read alike from columns and raw. */
const COMMON = {
  source: { value: 'r.data_source', join: '' },
  day: bucket('%Y-%m-%d'),
  hour: bucket('%Y-%m-%dT%H:00'),
};
/** How each field is read from a row of `recalls r`: columns only, never the raw JSON. */
const SOURCES = statsSources<Source>({ ...COMMON, scalar, each });

/** An archive older than V6 opened read-only has no stat_* columns: the same fields read from raw. */
const rawScalar = (name: StatColumn): Source => ({ value: `json_extract(r.raw, '$.${STAT_COLUMNS[name]}')`, join: '' });
const rawEach = (name: StatColumn): Source => ({
  value: 'e.value',
  join: `, json_each(r.raw, '$.${STAT_COLUMNS[name]}') AS e`,
});
const RAW_SOURCES = statsSources<Source>({ ...COMMON, scalar: rawScalar, each: rawEach });

/** Where the selected recalls are: `recalls r` under a WHERE, or the ids a residual filter let through. */
function selected(db: Database.Database, q: ArchiveQuery): { from: string; where: string; params: unknown[] } {
  const sel = selection(sqliteDialect, q);
  if (!sel.residual) return { from: 'recalls r', where: sel.where, params: sel.params };
  // Filters SQL cannot answer run on each record; the ids that pass go to a temporary table.
  const ids: number[] = [];
  const rows = db
    .prepare(`SELECT r.id, r.raw FROM recalls r WHERE ${sel.where}`)
    .raw()
    .iterate(...sel.params);
  for (const [id, raw] of rows as IterableIterator<[number, string]>) {
    if (sel.residual(JSON.parse(raw) as Record<string, unknown>)) ids.push(id);
  }
  db.exec('CREATE TEMP TABLE IF NOT EXISTS stats_selection (id INTEGER PRIMARY KEY); DELETE FROM temp.stats_selection');
  const insert = db.prepare('INSERT INTO temp.stats_selection (id) VALUES (?)');
  db.transaction(() => {
    for (const id of ids) insert.run(id);
  })();
  return { from: 'temp.stats_selection AS s JOIN recalls r ON r.id = s.id', where: '1', params: [] };
}

export function stats(db: Database.Database, q: ArchiveQuery, by: readonly StatsField[]): StatsResult {
  const { from, where, params } = selected(db, q);
  const old = (db.pragma('user_version', { simple: true }) as number) < STAT_COLUMNS_VERSION;
  const sources = old ? RAW_SOURCES : SOURCES;
  const total =
    (db
      .prepare(`SELECT count(*) FROM ${from} WHERE ${where}`)
      .pluck()
      .get(...params) as number) ?? 0;
  const counts: StatsResult['counts'] = {};
  for (const field of by) {
    const { value, join } = sources[field];
    counts[field] = db
      .prepare(
        `SELECT ${value} AS value, count(*) AS count FROM ${from}${join} WHERE ${where} GROUP BY 1 ORDER BY 2 DESC, 1`,
      )
      .all(...params) as ValueCount[];
  }
  return { total, counts };
}
