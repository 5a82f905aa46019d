// Entering WAL while another connection holds the file: SQLite fails that at once when it writes (it asks for the write
// lock without its busy handler), so three syncs creating one archive could end "database is locked"; and when it
// reads (a query paged into less), SQLite's busy handler would block the thread, Ctrl-C with it, for 30 s. The open
// tries again, each try failing at once, paused between asynchronously until the busy timeout; past it, the run ends
// busy (exit 9) naming the archive; an interrupted wait ends at once with the interruption. A real SQLite file, two
// connections; the clock and the sleep are injected, so nothing sleeps.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveBusyError } from '../../src/archive/archive-errors.js';
import { archiveErrorOf, enterWal, openDatabase } from '../../src/archive/sqlite/open.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { describeError } from '../../src/runtime/error-reports.js';
import { fakeClock } from '../helpers/in-process.js';
import { tempFolder } from '../helpers/archive.js';

const open: Database.Database[] = [];
const reads: IterableIterator<unknown>[] = [];
afterEach(() => {
  for (const reading of reads.splice(0)) reading.return?.();
  for (const db of open.splice(0)) if (db.open) db.close();
});

/** A file in rollback mode (as a sync leaves it) and a second connection with a 30 s busy timeout, as a sync's. */
async function rollbackArchive(): Promise<{ file: string; opener: Database.Database }> {
  const file = tempFolder().file('recalls.db');
  (await openDatabase(file, { create: true })).close();
  const opener = new Database(file, { timeout: 30_000 });
  open.push(opener);
  expect(opener.pragma('journal_mode = DELETE', { simple: true })).toBe('delete');
  return { file, opener };
}

/** ... whose write lock another connection holds. */
async function heldArchive(): Promise<{ file: string; holder: Database.Database; opener: Database.Database }> {
  const { file, opener } = await rollbackArchive();
  const holder = new Database(file);
  open.push(holder);
  holder.exec('BEGIN IMMEDIATE');
  holder.exec("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('probe', '1')");
  return { file, holder, opener };
}

/** ... which another connection is reading: a statement's rows half read hold its shared lock. */
async function readArchive(): Promise<{ file: string; reading: IterableIterator<unknown>; opener: Database.Database }> {
  const { file, opener } = await rollbackArchive();
  const reader = new Database(file, { readonly: true });
  open.push(reader);
  const reading = reader.prepare('SELECT name FROM sqlite_schema').iterate();
  reads.push(reading);
  expect(reading.next().done).toBe(false);
  return { file, reading, opener };
}

/** The run's clock and sleep, faked: the time moves only by the sleeps; a sleep rejects when its signal aborts. */
function fakeWait(onSleep: (count: number) => void = () => {}) {
  const wait = fakeClock(1_000_000, (_ms, count) => onSleep(count));
  return { wait, sleeps: wait.sleeps };
}

const mode = (db: Database.Database) => db.pragma('journal_mode', { simple: true });
const busyTimeout = (db: Database.Database) => db.pragma('busy_timeout', { simple: true });

describe('entering WAL while another connection holds the file', () => {
  it('SQLite itself fails the switch at once when the other writes, without its busy timeout', async () => {
    const { opener } = await heldArchive();
    // The connection has a 30 s busy timeout; the switch fails without waiting it (the test would time out first).
    expect(() => opener.pragma('journal_mode = WAL')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
  });

  it('is tried again until the writer commits, then the file is in WAL and keeps what the writer wrote', async () => {
    const { holder, opener } = await heldArchive();
    const { wait, sleeps } = fakeWait((n) => {
      if (n === 3) holder.exec('COMMIT');
    });
    await enterWal(opener, wait);
    expect(sleeps).toEqual([20, 20, 20]);
    expect(mode(opener)).toBe('wal');
    expect(opener.prepare("SELECT value FROM archive_meta WHERE key = 'probe'").pluck().get()).toBe('1');
    // The connection waits for other writers as before.
    expect(busyTimeout(opener)).toBe(30_000);
  });

  it('a reader holding the file: each try fails at once (no 30 s blocking wait), and the switch goes through once it is done', async () => {
    const { reading, opener } = await readArchive();
    const { wait, sleeps } = fakeWait((n) => {
      if (n === 2) reading.return?.();
    });
    // SQLite's busy handler would have blocked this thread for the 30 s, the reader in it with it.
    await enterWal(opener, wait);
    expect(sleeps).toEqual([20, 20]);
    expect(mode(opener)).toBe('wal');
    expect(busyTimeout(opener)).toBe(30_000);
  });

  it('gives up at the busy timeout: the run ends busy (exit 9), naming the archive', async () => {
    const { file, opener } = await heldArchive();
    const { wait, sleeps } = fakeWait();
    const thrown = await enterWal(opener, wait).catch((err: unknown) => err);
    expect(thrown).toMatchObject({ code: 'SQLITE_BUSY' });
    // 30 s of 20 ms pauses, then one last try at the deadline.
    expect(sleeps.length).toBe(30_000 / 20);
    const named = archiveErrorOf(file, thrown);
    expect(named).toBeInstanceOf(ArchiveBusyError);
    expect(describeError(named)).toMatchObject({
      code: 9,
      message: `the archive ${file} is busy: another process kept it locked for more than 30 s`,
    });
    expect(mode(opener)).toBe('delete');
    expect(busyTimeout(opener)).toBe(30_000);
  });

  it('an interrupted wait ends at once with the interruption (exit 130), the file left in rollback mode', async () => {
    const { opener } = await readArchive();
    const stop = new AbortController();
    const interrupted = new InterruptedError('SIGTERM');
    const { wait, sleeps } = fakeWait((n) => {
      if (n === 3) stop.abort(interrupted);
    });
    const thrown = await enterWal(opener, wait, stop.signal).catch((err: unknown) => err);
    expect(thrown).toBe(interrupted);
    expect(describeError(thrown)).toMatchObject({ code: 130 });
    expect(sleeps).toEqual([20, 20, 20]);
    expect(mode(opener)).toBe('delete');
    expect(busyTimeout(opener)).toBe(30_000);
  });

  it('with the real sleep too: an abort ends the pause at once, no try after it', async () => {
    const { opener } = await heldArchive();
    const stop = new AbortController();
    const interrupted = new InterruptedError('SIGINT');
    const entering = enterWal(opener, undefined, stop.signal);
    // The first try has failed and the first pause begun: the abort ends it now, not in 20 ms nor in 30 s.
    stop.abort(interrupted);
    await expect(entering).rejects.toBe(interrupted);
    expect(mode(opener)).toBe('delete');
  });

  it('any other failure is not tried again', async () => {
    const file = tempFolder().file('recalls.db');
    const db = new Database(file);
    open.push(db);
    db.close();
    const { wait, sleeps } = fakeWait();
    await expect(enterWal(db, wait)).rejects.toThrow(/not open/);
    expect(sleeps).toEqual([]);
  });
});
