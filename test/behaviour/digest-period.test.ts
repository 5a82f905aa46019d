// `digest` periods on both engines, in process over real HTTP: a sync running across the period's end, a sync host with a
// wrong clock, a mistyped --sources, a key that covers fewer sources (a sync in its own process at the SQLite write lock:
// test/e2e/archive-processes.test.ts).
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { boundary, type DigestJson, digestPeriod, expectEachOnce, iso } from '../helpers/digest-period.js';
import { holdingProxy } from '../helpers/holding-proxy.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { ALL_KEY, LIMITED_KEY, sandboxFor } from '../helpers/sandbox.js';
import { until, untilValue } from '../helpers/wait.js';

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('a sync that started before the period ended but stored after the digest read: in the next digest', async () => {
    const sandbox = await sandboxFor({ recordCount: 30, seed: 5 });
    const archive = await testArchive(engine);
    const start = Date.now() - 60_000;
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    sandbox.addRecords(4);
    const proxy = await holdingProxy(sandbox.url);
    const held = proxy.hold();
    const second = runMain(['--base-url', proxy.url, 'sync', '--db', archive.db], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    await until('the second sync to ask for its page', held.arrived);
    const end = await boundary();
    const first = await digestPeriod(archive.db, sandbox.url, start, end);
    held.release();
    expect((await second).code).toBe(0);
    // The second run started before `end`, yet stored its recalls after the first digest read the archive.
    const runs = await archive.rows<{ started_at: string }>('SELECT started_at FROM sync_runs ORDER BY id');
    expect(Date.parse(runs[1]!.started_at)).toBeLessThan(end);
    const next = await digestPeriod(archive.db, sandbox.url, end, await boundary());
    await expectEachOnce(archive, first.json, next.json);
    expect(next.json.recalls.new).toHaveLength(4);
  });

  it('a sync host whose clock is 10 minutes slow: its recalls go by the archive clock, into the next digest', async () => {
    const sandbox = await sandboxFor({ recordCount: 30, seed: 6 });
    const archive = await testArchive(engine);
    const start = Date.now() - 60_000;
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const end = await boundary();
    const first = await digestPeriod(archive.db, sandbox.url, start, end);
    sandbox.addRecords(3);
    const slow = fakeClock(Date.now() - 10 * 60_000);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db], { clock: slow })).code).toBe(0);
    const runs = await archive.rows<{ started_at: string }>('SELECT started_at FROM sync_runs ORDER BY id');
    expect(Date.parse(runs[1]!.started_at)).toBeLessThan(end);
    const next = await digestPeriod(archive.db, sandbox.url, end, await boundary());
    await expectEachOnce(archive, first.json, next.json);
    expect(next.json.recalls.new).toHaveLength(3);
    expect(first.json.health.complete).toBe(true);
  });

  it('--sources with an id the key may not use: refused as feed refuses it, never "complete"', async () => {
    const sandbox = await sandboxFor({ recordCount: 10, seed: 7 });
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const feed = await runMainAgainst(sandbox, ['feed', '--sources', 'us_cpcs']);
    const r = await runMainAgainst(sandbox, ['digest', '--db', archive.db, '--sources', 'us_cpcs']);
    expect(feed.code).not.toBe(0);
    expect(r.code).toBe(feed.code);
    expect(r.stderr).toBe(feed.stderr);
    expect(r.stdout).toBe('');
  });

  it('health counts the sources the syncs were served, not all the reading key may use', async () => {
    const sandbox = await sandboxFor({ recordCount: 30, seed: 8 });
    const archive = await testArchive(engine);
    // A 2-source key syncs without --sources; a key for every source reads the digest.
    const sync = await runMain(['--base-url', sandbox.url, 'sync', '--db', archive.db], {
      env: { RECALL_FEED_API_KEY: LIMITED_KEY },
    });
    expect(sync.code).toBe(0);
    const r = await runMainAgainst(sandbox, ['digest', '--db', archive.db, '-f', 'json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as DigestJson;
    const all = (
      (await (await fetch(`${sandbox.url}/v1/recalls/sources`, { headers: { 'X-API-Key': ALL_KEY } })).json()) as {
        data_sources: { id: string }[];
      }
    ).data_sources.map((s) => s.id);
    const limited = ['uk_opss', 'us_cpsc'];
    expect(d.health.sources_missing.sort()).toEqual(all.filter((s) => !limited.includes(s)).sort());
    expect(d.health.complete).toBe(false);
    const served = await archive.rows<{ served: string }>('SELECT served FROM sync_runs');
    expect(JSON.parse(served[0]!.served).sort()).toEqual(limited);
  });

  if (engine === 'postgres') {
    it('a page held mid-transaction while the digest reads: the digest waits for it, the next digest has it', async () => {
      const sandbox = await sandboxFor({ recordCount: 30, seed: 9 });
      const archive = await testArchive(engine);
      const start = Date.now() - 60_000;
      expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
      sandbox.addRecords(5);
      // The archive's write lock, held by another session: the sync's page waits for it inside its transaction.
      const holder = new pg.Client({ connectionString: archive.db });
      await holder.connect();
      deferCleanup(() => holder.end());
      await holder.query("SELECT pg_advisory_lock(hashtext('recall-feed recall_feed write'))");
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        await holder.query("SELECT pg_advisory_unlock(hashtext('recall-feed recall_feed write'))");
      };
      const second = runMainAgainst(sandbox, ['sync', '--db', archive.db]);
      await untilValue(
        'the page to wait for the lock in its transaction',
        async () =>
          (
            await holder.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
            )
          ).rows[0]!.n,
        (n) => n > 0,
      );
      const end = await boundary();
      // The digest finds the lock taken, sleeps; the page commits meanwhile.
      const first = await digestPeriod(archive.db, sandbox.url, start, end, fakeClock(Date.now(), release));
      expect(first.sleeps.length).toBeGreaterThan(0);
      expect(first.json.health.writes_settled).toBe(true);
      expect((await second).code).toBe(0);
      const next = await digestPeriod(archive.db, sandbox.url, end, await boundary());
      await expectEachOnce(archive, first.json, next.json);
      expect(next.json.recalls.new).toHaveLength(5);
    });
  }

  it('a period that has not ended on the archive clock (--until an hour ahead) is never complete', async () => {
    const sandbox = await sandboxFor({ recordCount: 10, seed: 11 });
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const r = await runMainAgainst(sandbox, [
      'digest',
      '--db',
      archive.db,
      '--until',
      iso(Date.now() + 3_600_000),
      '-f',
      'json',
    ]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as DigestJson;
    expect(d.health).toMatchObject({ complete: false, writes_settled: false });
    expect(r.stderr).toContain("the archive's clock had not reached its end");
    // Further ahead than it would wait: it says so at once.
    expect(r.sleeps).toEqual([]);
  });

  it('a writer that never lets go: the digest waits a bounded time, then says monitoring is incomplete', async () => {
    const sandbox = await sandboxFor({ recordCount: 10, seed: 10 });
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const release = await holdWriteLock(archive);
    try {
      const r = await runMainAgainst(sandbox, ['digest', '--db', archive.db, '-f', 'json']);
      expect(r.code).toBe(0);
      const d = JSON.parse(r.stdout) as DigestJson;
      expect(d.health).toMatchObject({ complete: false, writes_settled: false });
      expect(r.stderr).toContain('a sync was still storing recalls of this period');
      expect(r.sleeps.reduce((a, b) => a + b, 0)).toBe(300_000);
    } finally {
      await release();
    }
  });
});

/** Holds the archive's write lock as a page being stored does; resolves to its release. */
async function holdWriteLock(archive: TestArchive): Promise<() => Promise<void>> {
  if (archive.engine === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(archive.db);
    db.exec('BEGIN IMMEDIATE');
    return async () => {
      db.exec('ROLLBACK');
      db.close();
    };
  }
  const client = new pg.Client({ connectionString: archive.db });
  await client.connect();
  await client.query("SELECT pg_advisory_lock(hashtext('recall-feed recall_feed write'))");
  return async () => {
    await client.end();
  };
}
