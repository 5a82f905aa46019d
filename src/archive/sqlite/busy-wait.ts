// Waiting for a SQLite lock another process holds without blocking the thread: each try fails at once (busy_timeout
// 0) and the tries are paused between on the run's clock and sleep, so Ctrl-C or SIGTERM ends the wait at once.
import type Database from 'better-sqlite3';
import { sleep } from '../../api/sleep.js';
import type { OpenOptions } from '../store.js';

/**
 * How long a connection waits for another one by default: a writer for another writer (a concurrent sync) to finish its
 * page, a sync switching the file to WAL for its readers to finish (enterWal). A writer's OpenOptions.lockWaitMs
 * (RECALL_FEED_DB_LOCK_WAIT) replaces it.
 */
export const BUSY_TIMEOUT_MS = 30_000;

/** How a wait for the file passes: the run's clock, and its sleep, which the run's signal ends (real ones by default). */
export type BusyWait = NonNullable<OpenOptions['wait']>;

/** How a writer waits for the file: the clock and sleep, the run's signal, and for how long (default BUSY_TIMEOUT_MS). */
export interface Waiting {
  wait?: BusyWait;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export const REAL_WAIT: BusyWait = { now: Date.now, sleep };

/** Between two tries. */
const RETRY_MS = 20;

/**
 * `attempt` until it does not fail with SQLITE_BUSY, for at most `timeoutMs` (BUSY_TIMEOUT_MS); SQLite's own busy
 * handler, which would block the thread (and with it the signal handlers) while it waits, is off meanwhile. Aborting
 * `signal` ends the wait at once with its reason; the last SQLITE_BUSY is thrown at the deadline.
 */
export async function whenNotBusy<T>(
  db: Database.Database,
  attempt: () => T,
  wait: BusyWait = REAL_WAIT,
  signal?: AbortSignal,
  timeoutMs = BUSY_TIMEOUT_MS,
): Promise<T> {
  const deadline = wait.now() + timeoutMs;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    for (;;) {
      signal?.throwIfAborted();
      try {
        return attempt();
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || wait.now() >= deadline) throw err;
      }
      await wait.sleep(RETRY_MS, signal);
    }
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}
