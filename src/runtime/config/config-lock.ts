// Keeps concurrent `config set`/`unset` from losing each other's changes: a lock (proper-lockfile) around each read-modify-write.
import type { LockOptions } from 'proper-lockfile';
import { ConfigWriteError, fsReason } from './config-errors.js';

/**
 * A change takes milliseconds, so a short bounded wait is plenty: about 10 s in all before giving up. A
 * lock left by a killed process is taken over once it is 10 s old (proper-lockfile refreshes a live one).
 */
const LOCK_OPTIONS: Omit<LockOptions, 'lockfilePath'> = {
  stale: 10_000,
  realpath: false,
  retries: { retries: 60, factor: 1.3, minTimeout: 10, maxTimeout: 250, randomize: true },
};

/** Runs `change` (synchronous: read, change, write) while holding `<file>.lock`; the folder must exist. */
export async function withConfigLock<T>(file: string, change: () => T): Promise<T> {
  const { default: lockfile } = await import('proper-lockfile');
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, { ...LOCK_OPTIONS, lockfilePath: `${file}.lock` });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new ConfigWriteError(file, 'another recall-feed process kept it locked for over 10 s', err);
    }
    throw new ConfigWriteError(file, fsReason(err), err);
  }
  try {
    return change();
  } finally {
    // Already released only when the lock was compromised (taken over as stale): nothing left to do.
    await release().catch(() => {});
  }
}
