// `sync` and `query` in process: the archive holds the window once, byte for byte; reruns; the default archive; failures
// (a sync killed mid-run and syncs overlapping in real processes: test/e2e/archive-processes.test.ts).
import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
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
      const first = await runMainAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
      expect(first.code).toBe(0);
      const expected = window();
      expect(expected.length).toBe(1500);
      expect(JSON.parse(first.stdout)).toEqual({ fetched: 1500, new: 1500, updated: 0, unchanged: 0, total: 1500 });

      const feed = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl']);
      sandbox.clearRequests();
      const query = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl']);
      expect(query.code).toBe(0);
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
      const quiet = await runMainAgainst(sandbox, ['sync', '--db', db]);
      expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
      const again = await runMainAgainst(sandbox, ['sync', '--db', db], { env: { RECALL_FEED_FORCE_TTY: '1' } });
      expect(again.code).toBe(0);
      expect(again.stdout).toBe('');
      const expected = window();
      const days = expected.map((r) => r.published_at.slice(0, 10)).sort();
      expect(again.stderr).toBe(
        `fetched 1,500 · 0 new · 0 updated · archive: 1,500 recalls, ${days[0]} to ${days.at(-1)}\n`,
      );
    });

    it('query needs no key and no server', async () => {
      const r = await runMain(['--base-url', 'http://127.0.0.1:9', 'query', '--db', db, '--limit', '2', '-f', 'jsonl']);
      expect(r.code).toBe(0);
      expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(
        window()
          .slice(0, 2)
          .map((x) => x.id),
      );
    });

    it('finds the archive through RECALL_FEED_DB', async () => {
      const viaEnv = await runMain(['query', '--limit', '1', '-f', 'jsonl'], { env: { RECALL_FEED_DB: db } });
      expect(viaEnv.code).toBe(0);
      expect(lines(viaEnv.stdout)).toHaveLength(1);
    });
  });
});

describe('failures', () => {
  it('finds the default archive in the XDG data folder', async () => {
    const data = folder.file('xdg');
    const synced = await runMainAgainst(sandbox, ['sync', '--hours', '1'], { env: { XDG_DATA_HOME: data } });
    expect(synced.code).toBe(0);
    const count = window().filter((r) => Date.parse(`${r.published_at}Z`) >= FIXED_START - 3_600_000).length;
    // The sandbox's demo key: its recalls are in the sandbox's own archive (recalls-sandbox.db), found with that key.
    const viaXdg = await runMain(['query', '-f', 'jsonl'], {
      env: { XDG_DATA_HOME: data, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(lines(viaXdg.stdout)).toHaveLength(count);
  });

  it('a missing archive is exit 2 with a hint to sync', async () => {
    const r = await runMain(['query', '--db', folder.file('missing.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: no archive at ${folder.file('missing.db')}\nhint: run \`recall-feed sync\` first to create it, or point --db or RECALL_FEED_DB at an archive\n`,
    );
  });

  it('a file that is not an archive is refused untouched; a path that cannot be written is exit 10', async () => {
    const notes = folder.file('notes.txt');
    writeFileSync(notes, 'not a database\n'.repeat(100));
    const r = await runMainAgainst(sandbox, ['sync', '--db', notes]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*notes\.txt is not a recall-feed archive: not a SQLite database\n/);
    const blocked = await runMainAgainst(sandbox, ['sync', '--db', `${notes}/recalls.db`]);
    expect(blocked.code).toBe(10);
    expect(blocked.stderr).toMatch(
      /^error: cannot write .*notes\.txt\/recalls\.db: a part of the path is not a folder\nhint: /,
    );
  });

  it('a folder --db names that does not exist is exit 10 before any request, and is not created', async () => {
    // A typo in a shared archive's path must not start a new, empty archive that later syncs fill unnoticed.
    sandbox.clearRequests();
    const typo = folder.file('shraed');
    const r = await runMainAgainst(sandbox, ['sync', '--db', `${typo}/recalls.db`]);
    expect(r.code).toBe(10);
    expect(r.stderr).toBe(
      `error: cannot write ${typo}/recalls.db: its folder does not exist\nhint: create the folder first, or check the path that --db, RECALL_FEED_DB or the profile's db gives\n`,
    );
    expect(existsSync(typo)).toBe(false);
    expect(sandbox.requests()).toEqual([]);
    // Through the environment too; the default folder, by contrast, is created (the test above).
    const viaEnv = await runMainAgainst(sandbox, ['sync'], { env: { RECALL_FEED_DB: `${typo}/recalls.db` } });
    expect(viaEnv.code).toBe(10);
    expect(existsSync(typo)).toBe(false);
    expect(sandbox.requests()).toEqual([]);
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
      const r = await runMainAgainst(sandbox, [...args, '--db', folder.file('x.db')]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
    expect(sandbox.requests()).toEqual([]);
  });
});
