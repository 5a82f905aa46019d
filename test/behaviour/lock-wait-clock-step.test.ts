// A wait for a lock held by another writer ends on the monotonic clock: a wall clock stepped back an hour meanwhile
// (NTP, a virtual machine resumed) neither stretches --lock-wait nor RECALL_FEED_DB_LOCK_WAIT by that hour.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { deferCleanup } from '../helpers/cleanup.js';
import { type FakeClock, fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const HOUR = 3_600_000;

/** A run's clock whose wall clock steps back an hour at its first sleep, as the wait begins. */
function steppedBack(): FakeClock {
  const clock: FakeClock = fakeClock(Date.now(), (_ms, count) => {
    if (count === 1) clock.step(-HOUR);
  });
  return clock;
}

const slept = (clock: FakeClock) => clock.sleeps.reduce((a, b) => a + b, 0);

describe('a lock wait while the wall clock steps back an hour', () => {
  it('the run lock (--lock-wait 1): exit 9 after a second of waiting, not an hour and a second', async () => {
    const sandbox = await sandboxFor({ seed: 5, recordCount: 5 });
    const out = path.join(tempDir(), 'out.jsonl');
    const { acquireRunLock } = await import('../../src/runtime/files/run-lock.js');
    const lock = await acquireRunLock([out], { waitMs: 0 });
    deferCleanup(() => lock.release());
    const clock = steppedBack();
    const r = await runMainAgainst(sandbox, ['feed', '-o', out, '--lock-wait', '1'], { clock });
    expect(r.code).toBe(9);
    expect(slept(clock)).toBeGreaterThanOrEqual(1000);
    expect(slept(clock)).toBeLessThan(2000);
  });

  it('a SQLite archive another connection writes (RECALL_FEED_DB_LOCK_WAIT=1): exit 9 after a second', async () => {
    const sandbox = await sandboxFor({ seed: 5, recordCount: 5 });
    const db = path.join(tempDir(), 'a.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db, '-q'])).code).toBe(0);
    const other = new Database(db);
    deferCleanup(() => other.close());
    other.pragma('journal_mode = WAL');
    other.exec('BEGIN IMMEDIATE');
    const clock = steppedBack();
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, '-q'], {
      clock,
      env: { RECALL_FEED_DB_LOCK_WAIT: '1' },
    });
    expect(r.code).toBe(9);
    expect(slept(clock)).toBeGreaterThanOrEqual(1000);
    expect(slept(clock)).toBeLessThan(2000);
  });
});
