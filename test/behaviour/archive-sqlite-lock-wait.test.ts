// RECALL_FEED_DB_LOCK_WAIT on a SQLite archive (help environment, docs/archive.md): one setting for both engines, so a
// sync waits that long for another writer holding the file, then ends busy (exit 9, SQLite's code) naming the wait it
// gave. The other writer is a better-sqlite3 connection in this process; the waits pass on the run's fake clock.
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/runtime/exit-codes.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { syncedFolder } from '../helpers/archive-reads.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 40, seed: 61, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

const holders: Database.Database[] = [];
afterEach(() => {
  for (const db of holders.splice(0)) if (db.open) db.close();
});

/** Another writer holding the archive's write lock (a sync storing a page, a cases step), in `mode`. */
function holdWriteLock(file: string, mode: 'delete' | 'wal'): Database.Database {
  const db = new Database(file);
  holders.push(db);
  expect(db.pragma(`journal_mode = ${mode}`, { simple: true })).toBe(mode);
  db.exec('BEGIN IMMEDIATE');
  db.exec("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('probe', '1')");
  return db;
}

const waited = (sleeps: number[]) => sleeps.reduce((a, b) => a + b, 0);
const busy = (db: string, s: number) =>
  `error: the archive ${db} is busy: another process kept it locked for more than ${s} s`;

describe('RECALL_FEED_DB_LOCK_WAIT on a SQLite archive', () => {
  it('a writer holding the file 45 s: a sync allowed 60 s waits it out (exit 0), past the 30 s default', async () => {
    const { db } = await syncedFolder(sandbox);
    const holder = holdWriteLock(db, 'delete');
    const clock = fakeClock(Date.now(), () => {
      if (waited(clock.sleeps) >= 45_000 && holder.inTransaction) holder.exec('COMMIT');
    });
    const r = await runMainAgainst(sandbox, ['sync', '--db', db], { clock, env: { RECALL_FEED_DB_LOCK_WAIT: '60' } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(waited(r.sleeps)).toBeGreaterThanOrEqual(45_000);
  });

  it('a wait in fractions of a second (1.005, whose milliseconds are no whole number): taken, exit 0', async () => {
    const { db } = await syncedFolder(sandbox);
    const r = await runMainAgainst(sandbox, ['sync', '--db', db], { env: { RECALL_FEED_DB_LOCK_WAIT: '1.005' } });
    expect([r.code, r.stderr]).toEqual([0, '']);
  });

  it('allowed 3 s while the file is switched to WAL: exit 9 after 3 s on the run’s clock, saying 3 s', async () => {
    const { db } = await syncedFolder(sandbox);
    holdWriteLock(db, 'delete');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db], { env: { RECALL_FEED_DB_LOCK_WAIT: '3' } });
    expect(r.code).toBe(EXIT.busy);
    expect(r.stderr.split('\n')[0]).toBe(busy(db, 3));
    expect(waited(r.sleeps)).toBe(3000);
  });

  it('allowed 3 s while the file is in WAL and a page waits for the write lock: the same, exit 9 after 3 s', async () => {
    const { db } = await syncedFolder(sandbox);
    holdWriteLock(db, 'wal');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db], { env: { RECALL_FEED_DB_LOCK_WAIT: '3' } });
    expect(r.code).toBe(EXIT.busy);
    expect(r.stderr.split('\n')[0]).toBe(busy(db, 3));
    expect(waited(r.sleeps)).toBe(3000);
  });

  it('help environment says it applies to both engines, with each one’s exit code', async () => {
    const r = await runMain(['help', 'environment']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      "RECALL_FEED_DB_LOCK_WAIT seconds a writer waits for another writer's lock on the archive (default 30), then exit 13 (PostgreSQL) or 9 (a SQLite file: busy)",
    );
  });
});
