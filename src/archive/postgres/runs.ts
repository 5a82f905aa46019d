// sync_runs rows, the versions of one recall, and the archive's extent, on PostgreSQL.
import type pg from 'pg';
import { pgText } from './pg-text.js';
import type { ArchiveExtent, RunCounts, RunOutcome, StoredVersion } from '../store.js';

const iso = (ms: number) => new Date(ms).toISOString();

export async function beginRun(client: pg.Client, s: string, params: Record<string, unknown>, atMs: number) {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO ${s}.sync_runs (started_at, params) VALUES ($1, $2) RETURNING id`,
    [iso(atMs), JSON.stringify(params)],
  );
  return (rows[0] as { id: number }).id;
}

export async function finishRun(
  client: pg.Client,
  s: string,
  runId: number,
  outcome: RunOutcome,
  atMs: number,
  error?: string,
  served?: readonly string[],
): Promise<RunCounts> {
  const { rows } = await client.query<RunCounts>(
    `UPDATE ${s}.sync_runs SET ended_at = $1, outcome = $2, error = $3, served = $5 WHERE id = $4
       RETURNING fetched, added, updated, unchanged`,
    [iso(atMs), outcome, pgText(error ?? null), runId, served ? JSON.stringify(served) : null],
  );
  return rows[0] as RunCounts;
}

export async function extent(client: pg.Client, s: string): Promise<ArchiveExtent> {
  const { rows } = await client.query<{ total: number; first: number | null; last: number | null }>(
    `SELECT count(*)::int AS total, min(published_us) AS first, max(published_us) AS last FROM ${s}.recalls`,
  );
  const row = rows[0] as { total: number; first: number | null; last: number | null };
  return { total: row.total, firstPublishedUs: row.first ?? undefined, lastPublishedUs: row.last ?? undefined };
}

export async function versions(client: pg.Client, s: string, id: number): Promise<StoredVersion[]> {
  const { rows } = await client.query<{ version: number; raw: string; stored_at: string | null; current: boolean }>(
    `SELECT v.version, v.raw, r.started_at AS stored_at, false AS current
       FROM ${s}.recall_versions v LEFT JOIN ${s}.sync_runs r ON r.id = v.stored_run WHERE v.recall_id = $1
     UNION ALL
     SELECT c.version, c.raw, r.started_at, true FROM ${s}.recalls c LEFT JOIN ${s}.sync_runs r ON r.id = c.version_run
      WHERE c.id = $1
     ORDER BY 1`,
    [id],
  );
  return rows.map((r) => ({ version: r.version, raw: r.raw, storedAt: r.stored_at ?? undefined, current: r.current }));
}
