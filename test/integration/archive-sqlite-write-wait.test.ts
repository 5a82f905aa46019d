// A write transaction while another process's writer holds the archive's write lock (a second sync storing a page):
// SQLite's busy handler would block the thread, Ctrl-C with it, for up to 30 s. The client tries BEGIN IMMEDIATE
// again, each try failing at once, paused between on the run's clock and sleep; an interrupted wait ends at once.
// A real SQLite file in WAL mode, two connections; the clock and the sleep are injected, so nothing sleeps.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteClient } from '../../src/archive/sqlite/client.js';
import { openDatabase } from '../../src/archive/sqlite/open.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock } from '../helpers/in-process.js';
import { tempFolder } from '../helpers/archive.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) {
    if (db.open && db.inTransaction) db.exec('ROLLBACK');
    if (db.open) db.close();
  }
});

/** An archive in WAL mode (as a sync holds it), a connection of ours, and another holding the write lock. */
async function heldArchive() {
  const file = tempFolder().file('recalls.db');
  const ours = await openDatabase(file, { create: true });
  open.push(ours);
  const holder = new Database(file);
  open.push(holder);
  holder.exec('BEGIN IMMEDIATE');
  holder.exec("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('probe', 'theirs')");
  return { ours, holder };
}

/** The run's clock and sleep, faked: the time moves only by the sleeps; a sleep rejects when its signal aborts. */
function fakeWait(onSleep: (count: number) => void = () => {}) {
  const wait = fakeClock(1_000_000, (_ms, count) => onSleep(count));
  return { wait, sleeps: wait.sleeps };
}

const write = (client: SqliteClient, value: string) =>
  client.transaction('write', async () => {
    await client.run("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('probe', ?)", [value]);
  });

describe("a write while another process's writer holds the lock", () => {
  it('waits without blocking, each try failing at once, and writes once the other commits', async () => {
    const { ours, holder } = await heldArchive();
    const { wait, sleeps } = fakeWait((n) => {
      if (n === 3) holder.exec('COMMIT');
    });
    await write(new SqliteClient(ours, { wait }), 'ours');
    expect(sleeps).toEqual([20, 20, 20]);
    expect(ours.prepare("SELECT value FROM archive_meta WHERE key = 'probe'").pluck().get()).toBe('ours');
    // SQLite's own wait is back for the statements of a transaction, as before.
    expect(ours.pragma('busy_timeout', { simple: true })).toBe(30_000);
  });

  it('an interrupted run ends the wait at once with the interruption, having written nothing', async () => {
    const { ours, holder } = await heldArchive();
    const controller = new AbortController();
    const { wait, sleeps } = fakeWait((n) => {
      if (n === 2) controller.abort(new InterruptedError('SIGINT'));
    });
    await expect(write(new SqliteClient(ours, { wait, signal: controller.signal }), 'ours')).rejects.toBeInstanceOf(
      InterruptedError,
    );
    expect(sleeps).toEqual([20, 20]);
    expect(ours.inTransaction).toBe(false);
    holder.exec('COMMIT');
    expect(ours.prepare("SELECT value FROM archive_meta WHERE key = 'probe'").pluck().get()).toBe('theirs');
  });

  it('gives up at the busy timeout with SQLITE_BUSY, as before (the run ends busy, exit 9)', async () => {
    const { ours } = await heldArchive();
    const { wait, sleeps } = fakeWait();
    await expect(write(new SqliteClient(ours, { wait }), 'ours')).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(sleeps.length).toBe(30_000 / 20);
  });
});
