// One recall as stored: every version the archive kept, oldest first, the current one last; which recalls it holds.
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

/** Which of `ids` the archive holds. */
export async function heldRecalls(client: SqlClient, d: Dialect, ids: readonly number[]): Promise<Set<number>> {
  const held = new Set<number>();
  for (let i = 0; i < ids.length; i += HELD_BATCH) {
    const any = d.anyOf('id', ids.slice(i, i + HELD_BATCH), 'bigint');
    const rows = await client.all<{ id: number }>(`SELECT id FROM ${d.t('recalls')} WHERE ${any.sql}`, any.params);
    for (const row of rows) held.add(Number(row.id));
  }
  return held;
}
