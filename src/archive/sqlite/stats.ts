// Counts by field over the recalls a query selects; array fields count each element, day and hour bucket published_at.
import type Database from 'better-sqlite3';
import type { StatsField } from '../stats-fields.js';
import type { ArchiveQuery, StatsResult, ValueCount } from '../store.js';
import { selection } from './select.js';

const bucket = (format: string) => `strftime('${format}', r.published_us / 1000000, 'unixepoch')`;
const scalar = (field: string) => ({ value: `json_extract(r.raw, '$.${field}')`, join: '' });
const each = (field: string) => ({ value: 'e.value', join: `, json_each(r.raw, '$.${field}') AS e` });

/** How each field is read from a row of `recalls r`. */
const SOURCES: Record<StatsField, { value: string; join: string }> = {
  source: scalar('data_source'),
  severity: scalar('risk_severity'),
  risk: each('risk_types'),
  category: scalar('product_category'),
  brand: scalar('product_brand'),
  country: scalar('country_of_origin'),
  jurisdiction: each('geo_jurisdictions'),
  status: scalar('alert_status'),
  day: { value: bucket('%Y-%m-%d'), join: '' },
  hour: { value: bucket('%Y-%m-%dT%H:00'), join: '' },
};

/** The ids of the selected recalls as a table expression, plus its parameters. */
function selected(db: Database.Database, q: ArchiveQuery): { from: string; params: unknown[] } {
  const sel = selection(q);
  if (!sel.residual) return { from: `(SELECT r.id FROM recalls r WHERE ${sel.where})`, params: sel.params };
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
  return { from: 'temp.stats_selection', params: [] };
}

export function stats(db: Database.Database, q: ArchiveQuery, by: readonly StatsField[]): StatsResult {
  const { from, params } = selected(db, q);
  const total =
    (db
      .prepare(`SELECT count(*) FROM ${from}`)
      .pluck()
      .get(...params) as number) ?? 0;
  const counts: StatsResult['counts'] = {};
  for (const field of by) {
    const { value, join } = SOURCES[field];
    counts[field] = db
      .prepare(
        `SELECT ${value} AS value, count(*) AS count FROM ${from} AS s JOIN recalls r ON r.id = s.id${join}
         GROUP BY 1 ORDER BY 2 DESC, 1`,
      )
      .all(...params) as ValueCount[];
  }
  return { total, counts };
}
