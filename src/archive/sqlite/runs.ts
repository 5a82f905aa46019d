// One sync_runs row per sync: what it was asked, what it found, how it ended; and the archive's extent after it.
import type Database from 'better-sqlite3';
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
): RunCounts {
  db.prepare('UPDATE sync_runs SET ended_at = ?, outcome = ?, error = ? WHERE id = ?').run(
    iso(atMs),
    outcome,
    error ?? null,
    runId,
  );
  return runCounts(db, runId);
}

export function runCounts(db: Database.Database, runId: number): RunCounts {
  return db.prepare('SELECT fetched, added, updated, unchanged FROM sync_runs WHERE id = ?').get(runId) as RunCounts;
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
