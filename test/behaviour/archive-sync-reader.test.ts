// A sync while another connection reads the SQLite archive, the CLI in process: a sync leaves the file in rollback
// mode, and switching it to WAL needs it to itself, so a reader still reading (a query paged into less, the sqlite3
// shell) holds the sync up to the busy timeout. Ctrl-C or SIGTERM ends that wait at once (exit 130), past it the run
// ends busy (exit 9) saying a reader may be why, and nothing is written either way. The reader is a better-sqlite3
// statement half read in this process; the 30 s pass on the run's fake clock, so nothing sleeps.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { syncedFolder } from '../helpers/archive-reads.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 300, seed: 57, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

const readers: { db: Database.Database; rows: IterableIterator<unknown> }[] = [];
afterEach(() => {
  for (const { db, rows } of readers.splice(0)) {
    rows.return?.();
    db.close();
  }
});

/** Another program reading the archive: a statement whose rows are half read holds the file's shared lock. */
function readHalfway(file: string): { done: () => void } {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT id FROM recalls').iterate();
  readers.push({ db, rows });
  expect(rows.next().done).toBe(false);
  return { done: () => rows.return?.() };
}

/** What a sync would change: the file's bytes (their hash) and time, and the files beside it (a -wal, -shm or -journal). */
function snapshot(dir: string, db: string) {
  const sha256 = createHash('sha256').update(readFileSync(db)).digest('hex');
  return { sha256, mtime: statSync(db).mtimeMs, files: readdirSync(dir).sort() };
}

const syncRuns = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM sync_runs').pluck().get();
  } finally {
    db.close();
  }
};

describe('a sync while another program reads the archive (rollback mode, as the last sync left it)', () => {
  it('Ctrl-C or SIGTERM during the wait ends the run at once: exit 130, nothing written, nothing sent', async () => {
    const { dir, db } = await syncedFolder(sandbox);
    const runs = syncRuns(db);
    readHalfway(db);
    const before = snapshot(dir, db);
    sandbox.clearRequests();
    const stop = new AbortController();
    // The first pause of the wait is where the signal comes: it ends the run there, not 30 s later.
    const clock = fakeClock(Date.now(), () => stop.abort(new InterruptedError('SIGTERM')));
    const run = await runMainAgainst(sandbox, ['sync', '--db', db], { clock, signal: stop.signal });
    expect([run.code, run.stdout, run.stderr]).toEqual([130, '', 'error: interrupted\n']);
    expect(run.sleeps).toEqual([20]);
    expect(snapshot(dir, db)).toEqual(before);
    expect(sandbox.requests()).toEqual([]);
    expect(syncRuns(db)).toBe(runs);
  });

  it('past 30 s the run ends busy (exit 9), naming a reader as a cause; once the reader is done, a sync goes through', async () => {
    const { dir, db } = await syncedFolder(sandbox);
    const runs = syncRuns(db) as number;
    const reader = readHalfway(db);
    const before = snapshot(dir, db);
    const run = await runMainAgainst(sandbox, ['sync', '--db', db]);
    expect(run.code).toBe(9);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `error: the archive ${db} is busy: another process kept it locked for more than 30 s\n` +
        'hint: another program has it open: a recall-feed writing it (a sync, a cases step, match --open-cases), or, ' +
        'as a sync switches it to WAL, one still reading it (a query or stats paged into less, the sqlite3 shell, ' +
        'Datasette); `fuser` or `lsof` on the file shows which: run the command again once it has finished\n',
    );
    // 30 s on the run's clock, a try every 20 ms.
    expect(run.sleeps.reduce((a, b) => a + b, 0)).toBe(30_000);
    expect(snapshot(dir, db)).toEqual(before);

    reader.done();
    const again = await runMainAgainst(sandbox, ['sync', '--db', db]);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(syncRuns(db)).toBe(runs + 1);
    expect(readdirSync(dir).sort()).toEqual(['recalls.db']);
  });
});

describe('reading a file left in WAL mode (docs/archive.md)', () => {
  it('SQLite creates -wal and -shm beside it, which a read-only reader cannot remove; the next sync removes them', async () => {
    const { dir, db } = await syncedFolder(sandbox);
    const other = new Database(db);
    expect(other.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
    other.close();
    expect(readdirSync(dir).sort()).toEqual(['recalls.db']);

    const query = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl', '--limit', '3']);
    expect([query.code, query.stderr]).toEqual([0, '']);
    expect(query.stdout.trim().split('\n')).toHaveLength(3);
    expect(readdirSync(dir).sort()).toEqual(['recalls.db', 'recalls.db-shm', 'recalls.db-wal']);
    expect(statSync(path.join(dir, 'recalls.db-wal')).size).toBe(0);

    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['recalls.db']);
  });
});
