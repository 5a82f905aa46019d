// One recall as stored: every version the archive kept, oldest first, the current one last; the stamps of current versions.
import type { Dialect, SqlClient } from '../sql/client.js';
import type { StoredVersion } from '../store.js';

export async function versions(client: SqlClient, d: Dialect, id: number): Promise<StoredVersion[]> {
  const rows = await client.all<{ version: number; raw: string; stored_at: string | null; current: number }>(
    `SELECT v.version, v.raw, s.started_at AS stored_at, 0 AS current
       FROM ${d.t('recall_versions')} v LEFT JOIN ${d.t('sync_runs')} s ON s.id = v.stored_run WHERE v.recall_id = ?
     UNION ALL
     SELECT r.version, r.raw, s.started_at, 1 FROM ${d.t('recalls')} r LEFT JOIN ${d.t('sync_runs')} s ON s.id = r.version_run
      WHERE r.id = ?
     ORDER BY 1`,
    [id, id],
  );
  return rows.map((r) => ({
    version: r.version,
    raw: r.raw,
    storedAt: r.stored_at ?? undefined,
    current: r.current === 1,
  }));
}

/** Ids asked about at once: well under SQLite's limit of bound parameters. */
const HELD_BATCH = 5000;

/** The version stamps (`version_us`: when each recall's current version committed) of those of `ids` the archive holds. */
export async function versionStamps(
  client: SqlClient,
  d: Dialect,
  ids: readonly number[],
): Promise<Map<number, number | null>> {
  const held = new Map<number, number | null>();
  for (let i = 0; i < ids.length; i += HELD_BATCH) {
    const any = d.anyOf('id', ids.slice(i, i + HELD_BATCH), 'bigint');
    const rows = await client.all<{ id: number; version_us: number | string | null }>(
      `SELECT id, version_us FROM ${d.t('recalls')} WHERE ${any.sql}`,
      any.params,
    );
    for (const row of rows) held.set(Number(row.id), row.version_us === null ? null : Number(row.version_us));
  }
  return held;
}

/** The `limit` latest versions committed before `beforeUs`, newest first: [id, version_us] (the version_us index). */
export async function latestStamps(
  client: SqlClient,
  d: Dialect,
  beforeUs: number,
  limit: number,
): Promise<[number, number][]> {
  const rows = await client.all<{ id: number; version_us: number | string }>(
    `SELECT id, version_us FROM ${d.t('recalls')} WHERE version_us < ? ORDER BY version_us DESC LIMIT ?`,
    [beforeUs, limit],
  );
  return rows.map((r) => [Number(r.id), Number(r.version_us)]);
}
