// The archive's transactions on PostgreSQL: writes one at a time under the schema's write lock, reads in one snapshot.
import type pg from 'pg';
import { ArchiveDatabaseError } from '../archive-errors.js';
import { lockName } from './migrate.js';

/**
 * How a connection waits for the write lock: bounded, and cut short when the command is interrupted (the stop cancels
 * the wait on the server: stop.ts).
 */
export interface LockWait {
  ms: number;
  signal: AbortSignal | undefined;
  /** `database d on host h`, for the message. */
  where: string;
  name: string;
}

/** Set per connection by the store, so that every writer (cases' too) waits the same way. */
const waits = new WeakMap<pg.Client, LockWait>();

export function setLockWait(client: pg.Client, wait: LockWait): void {
  waits.set(client, wait);
}

export async function inTransaction<T>(client: pg.Client, begin: string, fn: () => Promise<T>): Promise<T> {
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
 * Takes the write lock within lock_timeout (the statement's own, then the session's again), so a writer frozen
 * mid-page makes others give up with a message, not hang. An interrupt cancels the wait (stop.ts), and a write begun
 * after one is not started, unless the write may not be `stoppable` (it records what already happened elsewhere).
 */
async function takeWriteLock(client: pg.Client, schema: string, stoppable: boolean): Promise<void> {
  const found = waits.get(client);
  const wait = found && !stoppable ? { ...found, signal: undefined } : found;
  const lock = `SELECT pg_advisory_xact_lock(hashtext('${lockName(schema, 'write').replaceAll("'", "''")}'))`;
  if (!wait) {
    await client.query(lock);
    return;
  }
  wait.signal?.throwIfAborted();
  try {
    // One round trip: the three statements run in order, and stop at the first that fails.
    await client.query(
      `SET LOCAL lock_timeout = ${Math.max(1, Math.round(wait.ms))}; ${lock}; SET LOCAL lock_timeout = DEFAULT`,
    );
  } catch (err) {
    if (wait.signal?.aborted) throw wait.signal.reason;
    if ((err as { code?: unknown }).code === '55P03')
      throw new ArchiveDatabaseError(
        wait.name,
        'lock',
        `another writer has held the write lock of ${wait.where} for more than ${wait.ms / 1000} s; nothing was written`,
      );
    throw err;
  }
}

/**
 * Runs `fn` in a transaction that first takes the schema's advisory write lock (released at COMMIT or ROLLBACK), the
 * lock a sync's page takes too: a page and a `cases resolve` never both read the same newest event, so the chain never forks.
 */
export function inWriteTransaction<T>(
  client: pg.Client,
  schema: string,
  fn: () => Promise<T>,
  stoppable = true,
): Promise<T> {
  return inTransaction(client, 'BEGIN', async () => {
    await takeWriteLock(client, schema, stoppable);
    return fn();
  });
}

/** Reads in one snapshot: cases and their events agree even while a sync appends. */
export function inSnapshot<T>(client: pg.Client, fn: () => Promise<T>): Promise<T> {
  return inTransaction(client, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
}
