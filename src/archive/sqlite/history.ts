// One recall as stored: every version the archive kept, oldest first, the current one last.
import type Database from 'better-sqlite3';
import type { StoredVersion } from '../store.js';

export function versions(db: Database.Database, id: number): StoredVersion[] {
  const rows = db
    .prepare(
      `SELECT v.version, v.raw, s.started_at AS storedAt, 0 AS current
         FROM recall_versions v LEFT JOIN sync_runs s ON s.id = v.stored_run WHERE v.recall_id = ?
       UNION ALL
       SELECT r.version, r.raw, s.started_at, 1 FROM recalls r LEFT JOIN sync_runs s ON s.id = r.version_run WHERE r.id = ?
       ORDER BY 1`,
    )
    .all(id, id) as { version: number; raw: string; storedAt: string | null; current: number }[];
  return rows.map((r) => ({
    version: r.version,
    raw: r.raw,
    storedAt: r.storedAt ?? undefined,
    current: r.current === 1,
  }));
}
