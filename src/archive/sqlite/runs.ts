// One sync_runs row per sync: what it was asked, what it found, how it ended; and the archive's extent after it.
import type Database from 'better-sqlite3';
import { type RawRunRow, RUN_LOOKBACK_MS, type SyncRunRow, toRunRow } from '../run-rows.js';
import type { ArchiveExtent, RunCounts, RunOutcome } from '../store.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function beginRun(db: Database.Database, params: Record<string, unknown>, atMs: number): number {
  const row = db
    .prepare('INSERT INTO sync_runs (started_at, params) VALUES (?, ?) RETURNING id')
    .get(iso(atMs), JSON.stringify(params)) as { id: number };
  return row.id;
}

export function finishRun(
  db: Database.Database,
  runId: number,
  outcome: RunOutcome,
  atMs: number,
  error?: string,
  served?: readonly string[],
): RunCounts {
  return db
    .prepare(
      'UPDATE sync_runs SET ended_at = ?, outcome = ?, error = ?, served = ? WHERE id = ? RETURNING fetched, added, updated, unchanged',
    )
    .get(iso(atMs), outcome, error ?? null, served ? JSON.stringify(served) : null, runId) as RunCounts;
}

export function extent(db: Database.Database): ArchiveExtent {
  const row = db
    .prepare('SELECT count(*) AS total, min(published_us) AS first, max(published_us) AS last FROM recalls')
    .get() as {
    total: number;
    first: number | null;
    last: number | null;
  };
  return { total: row.total, firstPublishedUs: row.first ?? undefined, lastPublishedUs: row.last ?? undefined };
}

/** The runs that started in [fromMs - RUN_LOOKBACK_MS, toMs), oldest first (ISO strings of one shape sort as instants). */
export function runsAround(db: Database.Database, period: { fromMs: number; toMs: number }): SyncRunRow[] {
  const rows = db
    .prepare(
      `SELECT * FROM sync_runs
       WHERE started_at >= ? AND started_at < ? ORDER BY started_at, id`,
    )
    .all(new Date(period.fromMs - RUN_LOOKBACK_MS).toISOString(), new Date(period.toMs).toISOString()) as RawRunRow[];
  return rows.map(toRunRow);
}
