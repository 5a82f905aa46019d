// Counts by field over the recalls a query selects: record fields grouped by their whole stored JSON, then folded as the
// filters fold them (stats-groups.ts); day and hour bucket published_at.
import type Database from 'better-sqlite3';
import { STAT_COLUMNS, type StatColumn } from '../record-columns.js';
import type { StatsField } from '../stats-fields.js';
import { statsSources } from '../stats-sources.js';
import { foldedCounts, isRecordField, sortedCounts, type StoredCount } from '../stats-groups.js';
import type { ArchiveQuery, StatsResult } from '../store.js';
import { STAT_COLUMNS_VERSION } from './schema.js';
import { selection } from '../features/selection.js';
import { sqliteDialect } from './dialect.js';

type Source = { value: string };
const bucket = (format: string): Source => ({ value: `strftime('${format}', r.published_us / 1000000, 'unixepoch')` });
/** A record field's whole value as JSON text (NULL when absent), from its small stat_* column, in the covering index. */
const stored = (name: StatColumn): Source => ({ value: `r.stat_${name}` });

/** The source column and the time buckets, read alike from columns and raw. */
const COMMON = {
  source: { value: 'r.data_source' },
  day: bucket('%Y-%m-%d'),
  hour: bucket('%Y-%m-%dT%H:00'),
};
/** How each field is read from a row of `recalls r`: columns only, never the raw JSON. */
const SOURCES = statsSources<Source>({ ...COMMON, stored });

/** An archive older than V6 opened read-only has no stat_* columns: the same JSON text read from raw. */
const rawStored = (name: StatColumn): Source => ({ value: `r.raw -> '$.${STAT_COLUMNS[name]}'` });
const RAW_SOURCES = statsSources<Source>({ ...COMMON, stored: rawStored });

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
    const rows = db
      .prepare(`SELECT ${sources[field].value} AS value, count(*) AS count FROM ${from} WHERE ${where} GROUP BY 1`)
      .all(...params) as StoredCount[];
    counts[field] = isRecordField(field)
      ? foldedCounts(
          field,
          rows.map((r) => ({ value: r.value === null ? null : JSON.parse(r.value as string), count: r.count })),
        )
      : sortedCounts(rows);
  }
  return { total, counts };
}
