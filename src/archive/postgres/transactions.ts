// The archive's transactions on PostgreSQL: writes one at a time under the schema's write lock, reads in one snapshot.
import type pg from 'pg';
import { lockName } from './migrate.js';

async function inTransaction<T>(client: pg.Client, begin: string, fn: () => Promise<T>): Promise<T> {
  await client.query(begin);
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * Runs `fn` in a transaction that first takes the schema's advisory write lock (released at COMMIT or ROLLBACK), the
 * lock a sync's page takes too: a page and a `cases resolve` never both read the same newest event, so the chain never forks.
 */
export function inWriteTransaction<T>(client: pg.Client, schema: string, fn: () => Promise<T>): Promise<T> {
  return inTransaction(client, 'BEGIN', async () => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockName(schema, 'write')]);
    return fn();
  });
}

/** Reads in one snapshot: cases and their events agree even while a sync appends. */
export function inSnapshot<T>(client: pg.Client, fn: () => Promise<T>): Promise<T> {
  return inTransaction(client, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
}
