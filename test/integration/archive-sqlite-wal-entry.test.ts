// Entering WAL while another process writes the archive: SQLite fails that at once (it asks for the write lock without
// its busy handler), so three syncs creating one archive could end "database is locked". The open tries again until the
// busy timeout; past it, the run ends busy (exit 9) naming the archive. A real SQLite file, two connections; the clock
// and the pause are injected, so nothing sleeps.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveBusyError } from '../../src/archive/archive-errors.js';
import { archiveErrorOf, enterWal, openDatabase } from '../../src/archive/sqlite/open.js';
import { describeError } from '../../src/runtime/error-reports.js';
import { tempFolder } from '../helpers/archive.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

/** A file in rollback mode (as a sync leaves it) whose write lock another connection holds, and a second connection. */
function heldArchive(): { file: string; holder: Database.Database; opener: Database.Database } {
  const file = tempFolder().file('recalls.db');
  openDatabase(file, { create: true }).close();
  const holder = new Database(file);
  open.push(holder);
  expect(holder.pragma('journal_mode = DELETE', { simple: true })).toBe('delete');
  holder.exec('BEGIN IMMEDIATE');
  holder.exec("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('probe', '1')");
  const opener = new Database(file, { timeout: 30_000 });
  open.push(opener);
  return { file, holder, opener };
}

/** A clock moved only by the pauses, and the pauses taken. */
function fakeWait(onPause: (count: number) => void = () => {}) {
  let now = 1_000_000;
  const pauses: number[] = [];
  return {
    pauses,
    wait: {
      now: () => now,
      pause: (ms: number) => {
        pauses.push(ms);
        now += ms;
        onPause(pauses.length);
      },
    },
  };
}

describe('entering WAL while another connection holds the write lock', () => {
  it('SQLite itself fails the switch at once, without its busy timeout', () => {
    const { opener } = heldArchive();
    // The connection has a 30 s busy timeout; the switch fails without waiting it (the test would time out first).
    expect(() => opener.pragma('journal_mode = WAL')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
  });

  it('is tried again until the writer commits, then the file is in WAL and keeps what the writer wrote', () => {
    const { holder, opener } = heldArchive();
    const { wait, pauses } = fakeWait((n) => {
      if (n === 3) holder.exec('COMMIT');
    });
    enterWal(opener, wait);
    expect(pauses).toEqual([20, 20, 20]);
    expect(opener.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(opener.prepare("SELECT value FROM archive_meta WHERE key = 'probe'").pluck().get()).toBe('1');
  });

  it('gives up at the busy timeout: the run ends busy (exit 9), naming the archive', () => {
    const { file, opener } = heldArchive();
    const { wait, pauses } = fakeWait();
    let thrown: unknown;
    try {
      enterWal(opener, wait);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: 'SQLITE_BUSY' });
    // 30 s of 20 ms pauses, then one last try at the deadline.
    expect(pauses.length).toBe(30_000 / 20);
    const named = archiveErrorOf(file, thrown);
    expect(named).toBeInstanceOf(ArchiveBusyError);
    expect(describeError(named)).toMatchObject({
      code: 9,
      message: `the archive ${file} is busy: another process held its write lock for more than 30 s`,
    });
    expect(opener.pragma('journal_mode', { simple: true })).toBe('delete');
  });

  it('any other failure is not tried again', () => {
    const file = tempFolder().file('recalls.db');
    const db = new Database(file);
    open.push(db);
    db.close();
    const { wait, pauses } = fakeWait();
    expect(() => enterWal(db, wait)).toThrow(/not open/);
    expect(pauses).toEqual([]);
  });
});
