// `sync` and `query` end to end: the archive holds the window once, byte for byte; reruns, kills and concurrency.
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  ALL_KEY,
  BIN,
  cleanEnv,
  FIXED_START,
  jsonLines,
  lines,
  runAgainst,
  runCli,
  sandboxFor,
} from '../helpers/cli.js';
import { expectedFeed } from '../helpers/expected.js';
import { tempFolder } from '../helpers/archive.js';

let sandbox: Sandbox;
const folder = tempFolder('rf-sync-');
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 1500, seed: 21, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

let n = 0;
const freshDb = () => folder.file(`recalls-${++n}.db`);
const window = () => expectedFeed(sandbox, { now: FIXED_START });

function inArchive(file: string): { count: number; distinct: number; integrity: string } {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare('SELECT count(*) AS count, count(DISTINCT id) AS distinct_ FROM recalls').get() as {
      count: number;
      distinct_: number;
    };
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    return { count: row.count, distinct: row.distinct_, integrity };
  } finally {
    db.close();
  }
}

describe('sync, then query', () => {
  const db = freshDb();

  it('stores the window once; query -f jsonl is byte-equal to feed -f jsonl; nothing older than 24 h enters', async () => {
    const first = await runAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
    expect(first.exitCode).toBe(0);
    const expected = window();
    expect(expected.length).toBe(1500);
    expect(JSON.parse(first.stdout)).toEqual({ fetched: 1500, new: 1500, updated: 0, unchanged: 0, total: 1500 });

    const feed = await runAgainst(sandbox, ['feed', '-f', 'jsonl']);
    sandbox.clearRequests();
    const query = await runAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl']);
    expect(query.exitCode).toBe(0);
    expect(query.stderr).toBe('');
    expect(query.stdout).toBe(feed.stdout);
    expect(lines(query.stdout)).toEqual(expected.map((r) => JSON.stringify(r)));
    // Offline: the query sent nothing.
    expect(sandbox.requests()).toEqual([]);

    const older = sandbox.records().filter((r) => !expected.some((e) => e.id === r.id));
    expect(older.length).toBeGreaterThan(0);
    const stored = new Set(jsonLines(query.stdout).map((r) => r.id));
    expect(older.filter((r) => stored.has(r.id))).toEqual([]);
  });

  it('a second sync adds nothing and says so on stderr (on a terminal; silent in cron)', async () => {
    const quiet = await runAgainst(sandbox, ['sync', '--db', db]);
    expect([quiet.exitCode, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    const again = await runAgainst(sandbox, ['sync', '--db', db], { env: { RECALL_FEED_FORCE_TTY: '1' } });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe('');
    const expected = window();
    const days = expected.map((r) => r.published_at.slice(0, 10)).sort();
    expect(again.stderr).toBe(
      `fetched 1,500 · 0 new · 0 updated · archive: 1,500 recalls, ${days[0]} to ${days.at(-1)}\n`,
    );
  });

  it('query needs no key and no server', async () => {
    const r = await runCli(['--base-url', 'http://127.0.0.1:9', 'query', '--db', db, '--limit', '2', '-f', 'jsonl']);
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(
      window()
        .slice(0, 2)
        .map((x) => x.id),
    );
  });

  it('finds the archive through RECALL_FEED_DB and the XDG data folder', async () => {
    const viaEnv = await runCli(['query', '--limit', '1', '-f', 'jsonl'], { env: { RECALL_FEED_DB: db } });
    expect(viaEnv.exitCode).toBe(0);
    expect(lines(viaEnv.stdout)).toHaveLength(1);
    const data = folder.file('xdg');
    const synced = await runAgainst(sandbox, ['sync', '--hours', '1'], { env: { XDG_DATA_HOME: data } });
    expect(synced.exitCode).toBe(0);
    const count = window().filter((r) => Date.parse(`${r.published_at}Z`) >= FIXED_START - 3_600_000).length;
    expect(inArchive(`${data}/recall-feed/recalls.db`).count).toBe(count);
  });
});

describe('failures', () => {
  it('a missing archive is exit 2 with a hint to sync', async () => {
    const r = await runCli(['query', '--db', folder.file('missing.db')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `error: no archive at ${folder.file('missing.db')}\nhint: run \`recall-feed sync\` first to create it, or point --db or RECALL_FEED_DB at an archive\n`,
    );
  });

  it('a file that is not an archive is refused untouched; a path that cannot be written is exit 10', async () => {
    const notes = folder.file('notes.txt');
    writeFileSync(notes, 'not a database\n'.repeat(100));
    const r = await runAgainst(sandbox, ['sync', '--db', notes]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: .*notes\.txt is not a recall-feed archive: not a SQLite database\n/);
    const blocked = await runAgainst(sandbox, ['sync', '--db', `${notes}/recalls.db`]);
    expect(blocked.exitCode).toBe(10);
    expect(blocked.stderr).toMatch(
      /^error: cannot write .*notes\.txt\/recalls\.db: a part of the path is not a folder\nhint: /,
    );
  });

  it('bad flags are usage errors and send nothing', async () => {
    sandbox.clearRequests();
    for (const args of [
      ['sync', '--hours', '25'],
      ['sync', '--interval', '5'],
      ['query', '--since', 'yesterday'],
      ['query', '--severity', ','],
      ['query', '--sort', 'id'],
    ]) {
      const r = await runAgainst(sandbox, [...args, '--db', folder.file('x.db')]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('interrupted and concurrent syncs', () => {
  let slow: Sandbox | undefined;
  afterEach(async () => {
    await slow?.close();
    slow = undefined;
  });

  it('a sync killed with SIGKILL mid-run leaves a sound file; the next sync completes it', async () => {
    slow = await sandboxFor({ recordCount: 1500, seed: 21, clock: () => FIXED_START });
    slow.setFaults({ slow: 1, slowMs: 1500 });
    const db = freshDb();
    const child = execa('node', [BIN, '--base-url', slow.url, 'sync', '--db', db], {
      reject: false,
      extendEnv: false,
      env: cleanEnv({ RECALL_FEED_API_KEY: ALL_KEY }),
    });
    // Wait until the first page is committed, then kill while the second is on its way.
    for (let i = 0; i < 300; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (slow.requests().length >= 2 && inArchive(db).count > 0) break;
    }
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    const partial = inArchive(db);
    expect(partial.integrity).toBe('ok');
    expect(partial.count).toBeGreaterThan(0);
    expect(partial.count).toBeLessThan(1500);

    slow.setFaults({});
    const rerun = await runAgainst(slow, ['sync', '--db', db, '-f', 'json']);
    expect(rerun.exitCode).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ fetched: 1500, new: 1500 - partial.count, total: 1500 });
    expect(inArchive(db)).toEqual({ count: 1500, distinct: 1500, integrity: 'ok' });
  });

  it('two syncs into one new file at once both succeed; every record is stored once', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([
      runAgainst(sandbox, ['sync', '--db', db, '-f', 'json']),
      runAgainst(sandbox, ['sync', '--db', db, '-f', 'json']),
    ]);
    expect([a.exitCode, b.exitCode, a.stderr, b.stderr]).toEqual([0, 0, '', '']);
    const [ra, rb] = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
    expect(ra.new + rb.new).toBe(1500);
    expect(ra.new + ra.unchanged).toBe(1500);
    expect(rb.new + rb.unchanged).toBe(1500);
    expect(inArchive(db)).toEqual({ count: 1500, distinct: 1500, integrity: 'ok' });
  });
});
