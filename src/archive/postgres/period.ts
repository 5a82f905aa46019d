// The digest's reads on PostgreSQL: the sync runs around a period, and the recalls its runs stored (new, updated).
import type pg from 'pg';
import { type RawRunRow, RUN_LOOKBACK_MS, type SyncRunRow, toRunRow } from '../run-rows.js';
import type { ArchiveQuery, Period, StoredInPeriod } from '../store.js';
import { selection } from './select.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The runs that started in [fromMs - RUN_LOOKBACK_MS, toMs), oldest first (ISO strings of one shape sort as instants). */
export async function runsAround(client: pg.Client, s: string, period: Period): Promise<SyncRunRow[]> {
  const { rows } = await client.query<RawRunRow>(
    `SELECT * FROM ${s}.sync_runs
      WHERE started_at >= $1 AND started_at < $2 ORDER BY started_at, id`,
    [iso(period.fromMs - RUN_LOOKBACK_MS), iso(period.toMs)],
  );
  return rows.map(toRunRow);
}

/** Both lists in the archive's order (published_at, then id, newest first), by commit stamp, as SQLite's storedInPeriod gives them. */
export async function storedInPeriod(
  client: pg.Client,
  s: string,
  period: Period,
  q: ArchiveQuery,
): Promise<StoredInPeriod> {
  const sel = selection({ ...q, sinceUs: undefined, untilUs: undefined });
  const n = sel.params.length;
  const [from, to] = [`$${n + 1}::bigint`, `$${n + 2}::bigint`];
  const { rows } = await client.query<{ raw: string; is_new: boolean }>(
    `SELECT r.raw, r.first_us >= ${from} AS is_new
       FROM ${s}.recalls r
      WHERE ((r.first_us >= ${from} AND r.first_us < ${to})
          OR (r.version_us >= ${from} AND r.version_us < ${to} AND r.first_us < ${from}))
        AND ${sel.where}
      ORDER BY r.published_us DESC NULLS LAST, r.id DESC`,
    [...sel.params, period.fromMs * 1000, period.toMs * 1000],
  );
  const out: StoredInPeriod = { new: [], updated: [] };
  for (const row of rows) {
    const record = JSON.parse(row.raw) as Record<string, unknown>;
    if (sel.residual && !sel.residual(record)) continue;
    (row.is_new ? out.new : out.updated).push(record);
  }
  return out;
}
