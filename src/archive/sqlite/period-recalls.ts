// The recalls stored in a period, by commit stamp: first stored in it (new) or given a new version in it (updated), with the query's filters.
import type Database from 'better-sqlite3';
import type { ArchiveQuery, Period, StoredInPeriod } from '../store.js';
import { selection } from './select.js';

/**
 * Both lists in the archive's order (published_at, then id, newest first). The period is of commit stamps (a
 * page's stamp is taken under the write lock, docs/digest.md); `q`'s sources and filters apply, its published_at
 * window does not. Portable SQL but for the filters' own (select.ts).
 */
export function storedInPeriod(db: Database.Database, period: Period, q: ArchiveQuery): StoredInPeriod {
  const sel = selection({ ...q, sinceUs: undefined, untilUs: undefined });
  const from = period.fromMs * 1000;
  const to = period.toMs * 1000;
  const rows = db
    .prepare(
      `SELECT r.raw AS raw, CASE WHEN r.first_us >= ? THEN 1 ELSE 0 END AS is_new
       FROM recalls r
       WHERE ((r.first_us >= ? AND r.first_us < ?) OR (r.version_us >= ? AND r.version_us < ? AND r.first_us < ?))
         AND ${sel.where}
       ORDER BY r.published_us DESC, r.id DESC`,
    )
    .all(from, from, to, from, to, from, ...sel.params) as { raw: string; is_new: number }[];
  const out: StoredInPeriod = { new: [], updated: [] };
  for (const row of rows) {
    const record = JSON.parse(row.raw) as Record<string, unknown>;
    if (sel.residual && !sel.residual(record)) continue;
    (row.is_new === 1 ? out.new : out.updated).push(record);
  }
  return out;
}
