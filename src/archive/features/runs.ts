// One sync_runs row per sync (what it was asked, what it found, how it ended), the runs around a period, the extent.
import { type RawRunRow, RUN_LOOKBACK_MS, type SyncRunRow, toRunRow } from '../run-rows.js';
import type { Dialect, SqlClient } from '../sql/client.js';
import type { ArchiveExtent, Period, RunCounts, RunOutcome } from '../store.js';

const iso = (ms: number) => new Date(ms).toISOString();

export async function beginRun(client: SqlClient, d: Dialect, params: Record<string, unknown>, atMs: number) {
  const row = await client.get<{ id: number }>(
    `INSERT INTO ${d.t('sync_runs')} (started_at, params) VALUES (?, ?) RETURNING id`,
    [iso(atMs), JSON.stringify(params)],
  );
  if (row === undefined) throw new Error('sync_runs: the new run was not stored');
  return row.id;
}

export async function finishRun(
  client: SqlClient,
  d: Dialect,
  runId: number,
  outcome: RunOutcome,
  atMs: number,
  error?: string,
  served?: readonly string[],
): Promise<RunCounts> {
  // A 'settle': the run's end records what already happened (its pages stored), so a stop does not cut it.
  const counts = await client.transaction('settle', () =>
    client.get<RunCounts>(
      `UPDATE ${d.t('sync_runs')} SET ended_at = ?, outcome = ?, error = ?, served = ? WHERE id = ?
         RETURNING fetched, added, updated, unchanged`,
      [iso(atMs), outcome, error ?? null, served ? JSON.stringify(served) : null, runId],
    ),
  );
  // A run without its row never counts as done: digest and report judge by these rows whether monitoring held.
  if (counts === undefined)
    throw new Error(`sync_runs: run ${runId} is not in the archive, so its end was not recorded`);
  return counts;
}

export async function extent(client: SqlClient, d: Dialect): Promise<ArchiveExtent> {
  const row = (await client.get(
    `SELECT count(*) AS total, min(published_us) AS first, max(published_us) AS last FROM ${d.t('recalls')}`,
  )) as { total: number; first: number | null; last: number | null };
  return { total: row.total, firstPublishedUs: row.first ?? undefined, lastPublishedUs: row.last ?? undefined };
}

/** The runs that started in [fromMs - RUN_LOOKBACK_MS, toMs), oldest first (ISO strings of one shape sort as instants). */
export async function runsAround(client: SqlClient, d: Dialect, period: Period): Promise<SyncRunRow[]> {
  const rows = await client.all<RawRunRow>(
    `SELECT * FROM ${d.t('sync_runs')} WHERE started_at >= ? AND started_at < ? ORDER BY started_at, id`,
    [iso(period.fromMs - RUN_LOOKBACK_MS), iso(period.toMs)],
  );
  return rows.map(toRunRow);
}
