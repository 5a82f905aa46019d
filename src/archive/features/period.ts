// The recalls stored in a period, by commit stamp: first stored in it (new) or given a new version in it (updated).
import type { Dialect, SqlClient } from '../sql/client.js';
import type { ArchiveQuery, Period, StoredInPeriod } from '../store.js';
import { selection } from './selection.js';

/**
 * Both lists in the archive's order (published_at, then id, newest first). The period is of commit stamps (a
 * page's stamp is taken under the write lock, docs/digest.md); `q`'s sources and filters apply, its published_at
 * window does not.
 */
export async function storedIn(
  client: SqlClient,
  d: Dialect,
  period: Period,
  q: ArchiveQuery,
): Promise<StoredInPeriod> {
  const sel = selection(d, { ...q, sinceUs: undefined, untilUs: undefined });
  const from = period.fromMs * 1000;
  const to = period.toMs * 1000;
  const rows = await client.all<{ raw: string; is_new: number }>(
    `SELECT r.raw AS raw, CASE WHEN r.first_us >= ? THEN 1 ELSE 0 END AS is_new
       FROM ${d.t('recalls')} r
      WHERE ((r.first_us >= ? AND r.first_us < ?) OR (r.version_us >= ? AND r.version_us < ? AND r.first_us < ?))
        AND ${sel.where}
      ORDER BY r.published_us ${d.order('desc')}, r.id DESC`,
    [from, from, to, from, to, from, ...sel.params],
  );
  const out: StoredInPeriod = { new: [], updated: [] };
  for (const row of rows) {
    const record = JSON.parse(row.raw) as Record<string, unknown>;
    if (sel.residual && !sel.residual(record)) continue;
    (row.is_new === 1 ? out.new : out.updated).push(record);
  }
  return out;
}
