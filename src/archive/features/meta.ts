// The archive's own facts in archive_meta: where its recalls come from, its id, and the levels cases were last opened at.
import { randomUUID } from 'node:crypto';
import { settleOrigin } from '../origin.js';
import type { Dialect, SqlClient } from '../sql/client.js';
import type { ArchiveOrigin } from '../store.js';

/** Sets one fact, replacing it: in the caller's transaction. */
export function setMeta(client: SqlClient, d: Dialect, key: string, value: string): Promise<number> {
  return client.run(
    `INSERT INTO ${d.t('archive_meta')} (key, value) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [key, value],
  );
}

/**
 * Reads one fact and replaces it as `change` decides, in one transaction under the write lock, so that two runs never
 * both decide from the same value (a compare-and-set): `change` gets the value (undefined when none) and gives the new
 * one, null to remove it, or undefined to leave it. Resolves to the value the archive then holds.
 */
export function changeMeta(
  client: SqlClient,
  d: Dialect,
  key: string,
  change: (value: string | undefined) => string | null | undefined,
  kind: 'write' | 'settle' = 'write',
): Promise<string | undefined> {
  return client.transaction(kind, async () => {
    const row = await client.get<{ value: string }>(`SELECT value FROM ${d.t('archive_meta')} WHERE key = ?`, [key]);
    const next = change(row?.value);
    if (next === undefined) return row?.value;
    if (next === null) {
      await client.run(`DELETE FROM ${d.t('archive_meta')} WHERE key = ?`, [key]);
      return undefined;
    }
    await setMeta(client, d, key, next);
    return next;
  });
}

/**
 * Records the origin once, under the write lock; refuses recalls of the other origin (settleOrigin). Gives the archive
 * its id (`archive_id`, random) when it has none: a sync's first write, so that an archive written by an earlier
 * version gets one at its next sync.
 */
export function claimOrigin(client: SqlClient, d: Dialect, name: string, origin: ArchiveOrigin): Promise<void> {
  return client.transaction('write', async () => {
    const row = (await client.get<{ recorded: string | null; id: string | null; has: number | boolean }>(
      `SELECT (SELECT value FROM ${d.t('archive_meta')} WHERE key = 'origin') AS recorded,
              (SELECT value FROM ${d.t('archive_meta')} WHERE key = 'archive_id') AS id,
              CASE WHEN EXISTS (SELECT 1 FROM ${d.t('recalls')}) THEN 1 ELSE 0 END AS has`,
    )) as { recorded: string | null; id: string | null; has: number };
    const holds = settleOrigin(name, row.recorded ?? undefined, row.has === 1, origin);
    if (row.recorded === null)
      await client.run(`INSERT INTO ${d.t('archive_meta')} (key, value) VALUES ('origin', ?)`, [holds]);
    if (row.id === null)
      await client.run(`INSERT INTO ${d.t('archive_meta')} (key, value) VALUES ('archive_id', ?)`, [randomUUID()]);
  });
}

/**
 * The archive's id: a copy of the archive shares it, another archive put in its place does not (match --archive keeps
 * its state by it). Undefined for an archive no sync of this version has written.
 */
export async function archiveId(client: SqlClient, d: Dialect): Promise<string | undefined> {
  const row = await client.get<{ value: string }>(`SELECT value FROM ${d.t('archive_meta')} WHERE key = 'archive_id'`);
  return row?.value;
}

export async function caseLevels(client: SqlClient, d: Dialect): Promise<string[] | undefined> {
  const row = await client.get<{ value: string }>(`SELECT value FROM ${d.t('archive_meta')} WHERE key = 'case_levels'`);
  return row === undefined ? undefined : row.value.split(',').filter((l) => l !== '');
}
