// One recall as stored: every version the archive kept, oldest first, the current one last.
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
