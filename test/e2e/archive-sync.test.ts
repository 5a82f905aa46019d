// `sync` and `query` end to end: the archive holds the window once, byte for byte; reruns, kills and concurrency.
import { writeFileSync } from 'node:fs';
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
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { ENGINES } from '../helpers/postgres.js';

let sandbox: Sandbox;
const folder = tempFolder('rf-sync-');
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 1500, seed: 21, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

const window = () => expectedFeed(sandbox, { now: FIXED_START });

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  describe('sync, then query', () => {
    let archive: TestArchive;
    let db: string;
    beforeAll(async () => {
      archive = await testArchive(engine);
      db = archive.db;
    });

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

    it('finds the archive through RECALL_FEED_DB', async () => {
      const viaEnv = await runCli(['query', '--limit', '1', '-f', 'jsonl'], { env: { RECALL_FEED_DB: db } });
      expect(viaEnv.exitCode).toBe(0);
      expect(lines(viaEnv.stdout)).toHaveLength(1);
    });
  });

  describe('interrupted and concurrent syncs', () => {
    let slow: Sandbox | undefined;
    afterEach(async () => {
      await slow?.close();
      slow = undefined;
    });

    it('a sync killed with SIGKILL mid-run leaves a sound archive; the next sync completes it', async () => {
      slow = await sandboxFor({ recordCount: 1500, seed: 21, clock: () => FIXED_START });
      slow.setFaults({ slow: 1, slowMs: 1500 });
      const archive = await testArchive(engine);
      const db = archive.db;
      const child = execa('node', [BIN, '--base-url', slow.url, 'sync', '--db', db], {
        reject: false,
        extendEnv: false,
        env: cleanEnv({ RECALL_FEED_API_KEY: ALL_KEY }),
      });
      // Wait until the first page is committed, then kill while the second is on its way.
      for (let i = 0; i < 300; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (slow.requests().length >= 2 && (await archive.held()).count > 0) break;
      }
      child.kill('SIGKILL');
      const killed = await child;
      expect(killed.signal).toBe('SIGKILL');
      const partial = await archive.held();
      expect(partial.integrity).toBe('ok');
      expect(partial.count).toBeGreaterThan(0);
      expect(partial.count).toBeLessThan(1500);

      slow.setFaults({});
      const rerun = await runAgainst(slow, ['sync', '--db', db, '-f', 'json']);
      expect(rerun.exitCode).toBe(0);
      expect(JSON.parse(rerun.stdout)).toMatchObject({ fetched: 1500, new: 1500 - partial.count, total: 1500 });
      expect(await archive.held()).toEqual({ count: 1500, distinct: 1500, integrity: 'ok' });
    });

    it('three syncs into one new archive at once all succeed; every record is stored once', async () => {
      const archive = await testArchive(engine);
      const db = archive.db;
      const runs = await Promise.all([1, 2, 3].map(() => runAgainst(sandbox, ['sync', '--db', db, '-f', 'json'])));
      expect(runs.map((r) => [r.exitCode, r.stderr])).toEqual([
        [0, ''],
        [0, ''],
        [0, ''],
      ]);
      const summaries = runs.map((r) => JSON.parse(r.stdout));
      expect(summaries.reduce((sum, r) => sum + r.new, 0)).toBe(1500);
      for (const r of summaries) expect(r.new + r.unchanged).toBe(1500);
      expect(await archive.held()).toEqual({ count: 1500, distinct: 1500, integrity: 'ok' });
    });
  });
});

describe('failures', () => {
  it('finds the default archive in the XDG data folder', async () => {
    const data = folder.file('xdg');
    const synced = await runAgainst(sandbox, ['sync', '--hours', '1'], { env: { XDG_DATA_HOME: data } });
    expect(synced.exitCode).toBe(0);
    const count = window().filter((r) => Date.parse(`${r.published_at}Z`) >= FIXED_START - 3_600_000).length;
    // The sandbox's demo key: its recalls are in the sandbox's own archive (recalls-sandbox.db), found with that key.
    const viaXdg = await runCli(['query', '-f', 'jsonl'], {
      env: { XDG_DATA_HOME: data, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(lines(viaXdg.stdout)).toHaveLength(count);
  });

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
