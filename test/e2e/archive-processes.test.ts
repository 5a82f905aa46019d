// The archive seen from real processes: a sync killed mid-run (SIGKILL), syncs overlapping on one archive, a sync held at the
// SQLite write lock while a digest reads, SIGTERM while waiting for PostgreSQL's write lock, PGHOST and pg's own warnings
// (read and printed by the process itself), nothing written in the working folder. The rest runs in process:
// test/behaviour/archive-*.test.ts and digest-period.test.ts.
import { readdirSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { boundary, digestPeriod, expectEachOnce } from '../helpers/digest-period.js';
import {
  ALL_KEY,
  BIN,
  cleanEnv,
  FIXED_START,
  jsonLines,
  runAgainst,
  runCli,
  sandboxFor,
  tempDir,
} from '../helpers/cli.js';
import type { SpecRecall } from '../../src/api/schemas.js';
import { searchableWords, words } from '../helpers/archive.js';
import { expectedFeed } from '../helpers/expected.js';
import { holdingProxy } from '../helpers/holding-proxy.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { adminQuery, ENGINES, pgAdminUrl } from '../helpers/postgres.js';
import { until, untilValue } from '../helpers/wait.js';

const admin = pgAdminUrl();
const password = new URL(admin ?? 'postgres://x@y/z').password;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 1500, seed: 21, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

describe.each(ENGINES)('$engine: interrupted and concurrent syncs', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
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

    // The full-text index is complete too: records of the first page (stored before the kill) and of the last (by
    // the rerun) are found by the words of their titles, with every other record those words are in.
    const feed = jsonLines((await runAgainst(slow, ['feed', '-f', 'jsonl'])).stdout) as unknown as SpecRecall[];
    expect(feed).toHaveLength(1500);
    for (const r of [feed[0]!, feed[1]!, feed[750]!, feed.at(-2)!, feed.at(-1)!]) {
      const wanted = words(r.alert_title);
      const want = feed.filter((x) => wanted.every((w) => searchableWords(x).includes(w))).map((x) => x.id);
      const found = await runAgainst(slow, ['query', '--db', db, '--search', wanted.join(' '), '-f', 'jsonl']);
      expect(found.exitCode).toBe(0);
      expect(
        jsonLines(found.stdout)
          .map((x) => x.id)
          .sort(),
        r.alert_title,
      ).toEqual(want.sort());
    }
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

describe.skipIf(!ENGINES.find((e) => e.engine === 'sqlite')?.available)(
  'sqlite: a sync in its own process at the write lock',
  () => {
    const engine = 'sqlite';

    it('a page waiting at the write lock while the digest reads (a sync in its own process): the digest waits, the next digest has it', async () => {
      const sandbox = await sandboxFor({ recordCount: 30, seed: 12 });
      const archive = await testArchive(engine);
      const start = Date.now() - 60_000;
      expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
      sandbox.addRecords(5);
      const proxy = await holdingProxy(sandbox.url);
      const held = proxy.hold();
      const child = runCli(['--base-url', proxy.url, 'sync', '--db', archive.db], {
        env: { RECALL_FEED_API_KEY: ALL_KEY },
      });
      await until('the sync to ask for its page', held.arrived);
      // Another writer's transaction holds the lock: the sync's page, once it has its records, waits for it.
      const { default: Database } = await import('better-sqlite3');
      const other = new Database(archive.db);
      deferCleanup(() => {
        if (other.inTransaction) other.exec('ROLLBACK');
        other.close();
      });
      other.exec('BEGIN IMMEDIATE');
      held.release();
      const end = await boundary();
      const release = () => {
        if (other.inTransaction) other.exec('ROLLBACK');
      };
      const first = await digestPeriod(archive.db, sandbox.url, start, end, fakeClock(Date.now(), release));
      expect(first.sleeps.length).toBeGreaterThan(0);
      expect((await child).exitCode).toBe(0);
      const runs = await archive.rows<{ started_at: string }>('SELECT started_at FROM sync_runs ORDER BY id');
      expect(Date.parse(runs[1]!.started_at)).toBeLessThan(end);
      const next = await digestPeriod(archive.db, sandbox.url, end, await boundary());
      await expectEachOnce(archive, first.json, next.json);
      expect(next.json.recalls.new).toHaveLength(5);
    });
  },
);

describe.skipIf(!admin)('PostgreSQL from a process', () => {
  let small: Sandbox;
  beforeAll(async () => {
    small = await sandboxFor({ recordCount: 40, seed: 7 });
  });
  afterAll(async () => {
    await small?.close();
  });

  /** A connection of the test's own, holding what it is told to until the test ends. */
  async function holder(url: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    deferCleanup(() => client.end());
    return client;
  }

  /** Backends of `database` waiting for a lock not yet granted. */
  async function waiting(url: string): Promise<number> {
    const client = await holder(url);
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database() AND a.application_name = 'recall-feed'",
    );
    await client.end();
    return rows[0]?.n ?? 0;
  }

  /** Nothing the CLI prints may hold the password. */
  const noSecret = (r: { stdout: string; stderr: string }) => {
    expect(r.stdout).not.toContain(password);
    expect(r.stderr).not.toContain(password);
  };

  it('SIGTERM while a sync waits for the write lock: exit 130, its wait cancelled on the server, nothing written', async () => {
    const archive = await testArchive('postgres');
    expect((await runAgainst(small, ['sync', '--db', archive.db])).exitCode).toBe(0);
    small.addRecords(3);
    const lock = await holder(archive.db);
    await lock.query('BEGIN');
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('recall-feed recall_feed write'))");
    const child = runAgainst(small, ['sync', '--db', archive.db]);
    await untilValue(
      'the sync waits for the lock',
      () => waiting(archive.db),
      (n) => n === 1,
    );
    child.kill('SIGTERM');
    const interrupted = await child;
    expect(interrupted.exitCode).toBe(130);
    expect(interrupted.stderr).toContain('interrupted');
    // Its wait was cancelled on the server too: nothing of it is left queued behind the holder.
    expect(await waiting(archive.db)).toBe(0);
    expect((await archive.held()).count).toBe(40);

    await lock.query('COMMIT');
    expect((await runAgainst(small, ['sync', '--db', archive.db])).exitCode).toBe(0);
    expect((await archive.held()).count).toBe(43);
  });

  it('postgres://user:password@/db takes the host and port from PGHOST and PGPORT', async () => {
    const archive = await testArchive('postgres');
    const url = new URL(archive.db);
    const noHost = `postgres://${url.username}:${url.password}@${url.pathname}`;
    const r = await runAgainst(small, ['-v', 'sync', '--db', noHost], {
      env: { PGHOST: url.hostname, PGPORT: url.port },
    });
    expect(r.stderr).not.toContain(password);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`archive: postgres://${url.username}@${url.pathname}\n`);
    expect((await archive.held()).count).toBeGreaterThanOrEqual(40);
  });

  it('sslmode=require: no node-postgres security warning, one error line (the test server has no TLS)', async () => {
    const archive = await testArchive('postgres');
    const r = await runAgainst(small, ['sync', '--db', `${archive.db}?sslmode=require`]);
    expect(r.stderr).not.toMatch(/SECURITY WARNING|Warning/);
    expect(r.exitCode).toBe(13);
    expect(r.stderr).toMatch(
      /^error: the TLS connection to database \w+ on 127\.0\.0\.1 failed: .*\nhint: check sslmode/,
    );
  });

  it('sync, query, stats, show and match --archive with a URL write tables there and nothing in the working folder', async () => {
    const big = await sandboxFor({ recordCount: 800, seed: 71, clock: () => FIXED_START });
    const { db, name } = await testArchive('postgres');
    const cwd = tempDir('rf-cwd-');
    const sync = await runAgainst(big, ['-v', 'sync', '--db', db], { cwd });
    expect(sync.exitCode).toBe(0);
    noSecret(sync);
    expect(sync.stderr).toContain(`archive: ${name}\n`);
    const query = await runCli(['-v', 'query', '--db', db, '-f', 'jsonl', '--limit', '3'], { cwd });
    noSecret(query);
    expect(jsonLines(query.stdout).map((r) => r.id)).toEqual(
      expectedFeed(big, { now: FIXED_START })
        .slice(0, 3)
        .map((r) => r.id),
    );
    const stats = await runCli(['stats', '--db', db, '--by', 'source', '-f', 'json'], { cwd });
    expect(stats.exitCode).toBe(0);
    const [first] = expectedFeed(big, { now: FIXED_START });
    const show = await runCli(['show', String(first!.id), '--history', '-f', 'jsonl', '--db', db], { cwd });
    expect(show.stdout).toBe(`${JSON.stringify(first)}\n`);
    const modelled = expectedFeed(big, { now: FIXED_START }).find(
      (r) => r.product_model_numbers.length > 0 && /^[\w ]+$/.test(r.product_brand),
    )!;
    const catalogue = `${tempDir('rf-cat-')}/c.csv`;
    writeFileSync(
      catalogue,
      `sku,ean,brand,model,name\nM,,${modelled.product_brand},${modelled.product_model_numbers[0]},\n`,
    );
    const match = await runCli(['match', '--archive', '--catalog', catalogue, '--db', db, '-f', 'jsonl'], { cwd });
    expect(match.exitCode).toBe(0);
    expect(jsonLines(match.stdout).some((x) => x.recall_id === modelled.id)).toBe(true);
    noSecret(match);
    expect(readdirSync(cwd)).toEqual([]);
    // The run's provenance names the API's origin, never the database's credentials.
    const stored = await adminQuery<{ params: string }>(
      'SELECT params FROM recall_feed.sync_runs',
      [],
      new URL(db).pathname.slice(1),
    );
    expect(stored.map((r) => JSON.parse(r.params))).toEqual([
      { sources: null, hours: 24, base_url: new URL(big.url).origin },
    ]);
  });
});
