// Commit stamps on PostgreSQL: the database's clock (never the sync host's), read under the write lock, always increasing; and a digest's horizon.
import type pg from 'pg';
import { ArchiveTooOldError } from '../archive-errors.js';
import type { PgTarget } from './connect.js';
import { lockName } from './migrate.js';
import { STAMPS_VERSION } from './schema.js';

/** clock_timestamp() in µs: the time when the statement runs, not when the transaction began (now()). */
const CLOCK_US = '(extract(epoch FROM clock_timestamp()) * 1000000)::bigint';

/**
 * Stamps the recalls a page wrote (`ids`), inside its transaction, after it took the write lock: their current
 * version gets the stamp, and those new to the archive their first stamp too. max(clock, last + 1) keeps the
 * stamps in the order of the lock even if the database's clock steps back.
 */
export async function stampWrites(client: pg.Client, s: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await client.query(
    // An upsert, so a missing 'commit_us' row can never leave a page unstamped (out of every digest).
    `WITH t AS (
       INSERT INTO ${s}.archive_meta AS m (key, value) VALUES ('commit_us', ${CLOCK_US}::text)
       ON CONFLICT (key) DO UPDATE SET value = greatest(${CLOCK_US}, m.value::bigint + 1)::text
       RETURNING value::bigint AS us)
     UPDATE ${s}.recalls r SET version_us = t.us, first_us = coalesce(r.first_us, t.us)
       FROM t WHERE r.id = ANY($1::bigint[])`,
    [ids],
  );
}

/**
 * The stamp (ms) below which every write has committed, or undefined while a writer holds the schema's write
 * lock. The lock is tried, never waited for (the caller sleeps and asks again), and released at once: a
 * read-only role may take an advisory lock. The clock is read only once the lock is held. `version` is the schema's,
 * as the store found it when it opened (the digest asks every second while it waits: no catalogue read per poll).
 */
export async function commitHorizon(
  client: pg.Client,
  s: string,
  target: PgTarget,
  version: number,
): Promise<number | undefined> {
  if (version < STAMPS_VERSION) throw new ArchiveTooOldError(target.name, version, STAMPS_VERSION);
  await client.query('BEGIN');
  try {
    const lock = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS got', [
      lockName(target.schema, 'write'),
    ]);
    if (!lock.rows[0]?.got) return undefined;
    const { rows } = await client.query<{ us: number }>(
      `SELECT greatest(${CLOCK_US}, (SELECT value::bigint FROM ${s}.archive_meta WHERE key = 'commit_us')) AS us`,
    );
    return Number(rows[0]?.us) / 1000;
  } finally {
    await client.query('COMMIT');
  }
}
