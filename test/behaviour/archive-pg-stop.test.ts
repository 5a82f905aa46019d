import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/open-archive.js';
import type { ArchiveStore } from '../../src/archive/store.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { openOneCase } from '../helpers/open-case.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { adminQuery, pgAdminUrl, withDatabase } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { untilValue } from '../helpers/wait.js';

const admin = pgAdminUrl();

/** A session of the test's own holding `tables` (schema recall_feed) in ACCESS EXCLUSIVE mode until `release`. */
async function lockTables(url: string, tables: string[]): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  deferCleanup(() => client.end());
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${tables.map((t) => `recall_feed.${t}`).join(', ')} IN ACCESS EXCLUSIVE MODE`);
  return { release: () => client.query('ROLLBACK').then(() => {}) };
}

/** Resolves once a recall-feed connection to the archive's database waits for a lock. */
async function waitingForLock(archive: TestArchive): Promise<void> {
  const database = new URL(archive.db).pathname.slice(1);
  await untilValue(
    `a recall-feed connection to ${database} waiting for a lock`,
    () =>
      adminQuery<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND application_name = 'recall-feed' AND wait_event_type = 'Lock'`,
        [database],
      ),
    (rows) => (rows[0]?.n ?? 0) > 0,
  );
}

/*
 * No timing is asserted: each test lets the lock go only once the stopped command has ended, so a command the stop did
 * not end would wait for ever (the test's timeout).
 */

describe.skipIf(!admin)('PostgreSQL: a stop ends the statement that waits', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 40, seed: 23 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('cases resolve waiting for case_events: exit 130 at once, the case not resolved', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const id = await openOneCase(sandbox, archive.db);
    const [opened] = await archive.rows<{ id: string; status: string }>('SELECT id, status FROM cases');
    expect(opened?.status).toBe('open');

    const lock = await lockTables(archive.db, ['case_events']);
    const stop = new AbortController();
    const step = runMain(['cases', 'resolve', id, '--as', 'removed-from-sale', '--db', archive.db], {
      signal: stop.signal,
    });
    await waitingForLock(archive);
    stop.abort(new InterruptedError('SIGTERM'));
    const r = await step;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    await lock.release();
    const after = await archive.rows<{ status: string }>('SELECT status FROM cases');
    expect(after.map((c) => c.status)).toEqual(['open']);
    const events = await archive.rows<{ action: string }>('SELECT action FROM case_events ORDER BY seq');
    expect(events.map((e) => e.action)).toEqual(['opened']);
  });

  it('a sync whose page waits for recall_stats: exit 130 at once, the page not stored, the run interrupted', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    sandbox.addRecords(3);
    const lock = await lockTables(archive.db, ['recall_stats']);
    const stop = new AbortController();
    const sync = runMainAgainst(sandbox, ['sync', '--db', archive.db], { signal: stop.signal });
    await waitingForLock(archive);
    stop.abort(new InterruptedError('SIGTERM'));
    const r = await sync;
    expect(r.code).toBe(130);
    await lock.release();
    expect((await archive.held()).count).toBe(40);
    const runs = await archive.rows<{ outcome: string }>('SELECT outcome FROM sync_runs ORDER BY id');
    expect(runs.map((run) => run.outcome)).toEqual(['ok', 'interrupted']);
  });

  it('a reader (listing, stats) waiting for recalls: the stop is its error, at once', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const { count } = await archive.held();
    const lock = await lockTables(archive.db, ['recalls', 'recall_stats']);
    const stop = new AbortController();
    const store = await openArchive(archive.db, { create: false, readOnly: true, signal: stop.signal });
    try {
      const reason = new InterruptedError('SIGINT');
      const listing = (async () => {
        for await (const _ of store.records({ sortBy: 'published_at', order: 'desc' })) return 'a record';
        return 'none';
      })();
      listing.catch(() => {});
      await waitingForLock(archive);
      stop.abort(reason);
      await expect(listing).rejects.toBe(reason);
      // Sent after the stop: not refused, and answered once the lock is let go.
      const counted = store.stats({}, []);
      await lock.release();
      await expect(counted).resolves.toMatchObject({ total: count });
    } finally {
      await store.close();
    }
  });

  it('query, from the command line, waiting for recalls: exit 130 at once, nothing printed', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const lock = await lockTables(archive.db, ['recalls']);
    const stop = new AbortController();
    // The lock is let go only once the command has ended: a query the stop did not end would wait for ever.
    const reading = runMain(['query', '--db', archive.db, '-f', 'jsonl'], { signal: stop.signal });
    await waitingForLock(archive);
    stop.abort(new InterruptedError('SIGTERM'));
    const r = await reading;
    await lock.release();
    expect([r.code, r.stdout]).toEqual([130, '']);
  });

  it('a role at its connection limit: the stop still ends the waiting query (a cancel request needs no login)', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const database = new URL(archive.db).pathname.slice(1);
    const tag = randomBytes(4).toString('hex');
    const role = `rf_one_${tag}`;
    deferCleanup(async () => {
      await adminQuery(`DROP OWNED BY ${role} CASCADE`, [], database).catch(() => {});
      await adminQuery(`DROP ROLE IF EXISTS ${role}`);
    });
    await adminQuery(`CREATE ROLE ${role} LOGIN PASSWORD 'pw-${tag}' CONNECTION LIMIT 1`);
    await adminQuery(`GRANT CONNECT ON DATABASE ${database} TO ${role}`);
    await adminQuery(`GRANT USAGE ON SCHEMA recall_feed TO ${role}`, [], database);
    await adminQuery(`GRANT SELECT ON ALL TABLES IN SCHEMA recall_feed TO ${role}`, [], database);
    const url = withDatabase(admin as string, database, { name: role, password: `pw-${tag}` });
    const lock = await lockTables(archive.db, ['recalls']);
    const stop = new AbortController();
    const reading = runMain(['query', '--db', url, '-f', 'jsonl'], { signal: stop.signal });
    await waitingForLock(archive);
    stop.abort(new InterruptedError('SIGTERM'));
    const r = await reading;
    await lock.release();
    expect([r.code, r.stdout]).toEqual([130, '']);
  });

  it("a stop cuts a 'write' waiting for its table, never a 'settle' (it commits once the lock is let go)", async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const reason = new InterruptedError('SIGTERM');
    /**
     * `write` of a store whose run is stopped while it waits for `table` (after `prepare`, before the lock). A write the
     * stop cuts ends while the lock is held: the lock is let go only after it, so one the stop did not cut would wait
     * for ever. A settle is given 300 ms to show it does not end; then the lock is let go and it commits.
     */
    const stopped = async (
      table: string,
      settles: boolean,
      write: (store: ArchiveStore) => Promise<unknown>,
      prepare: (store: ArchiveStore) => Promise<void> = async () => {},
    ) => {
      const stop = new AbortController();
      const store = await openArchive(archive.db, { create: false, signal: stop.signal });
      try {
        await prepare(store);
        const lock = await lockTables(archive.db, [table]);
        const written = write(store).then(
          (value) => ({ value }),
          (err: unknown) => ({ stopped: err === reason }),
        );
        await waitingForLock(archive);
        stop.abort(reason);
        let ended = false;
        void written.then(() => {
          ended = true;
        });
        if (settles) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(ended).toBe(false);
        }
        const outcome = settles ? undefined : await written;
        await lock.release();
        return outcome ?? (await written);
      } finally {
        await store.close();
      }
    };
    expect(await stopped('archive_meta', false, (s) => s.changeMeta('case_levels', () => 'recorded', 'write'))).toEqual(
      {
        stopped: true,
      },
    );
    expect(await stopped('archive_meta', true, (s) => s.changeMeta('digest_end', () => 'recorded', 'settle'))).toEqual({
      value: 'recorded',
    });
    const meta = await archive.rows<{ key: string; value: string }>(
      "SELECT key, value FROM archive_meta WHERE key IN ('case_levels', 'digest_end')",
    );
    expect(meta).toEqual([{ key: 'digest_end', value: 'recorded' }]);

    // A sync's last write, its run's end ('ok': every page stored), records what already happened: never cut either.
    let runId = 0;
    const begin = async (store: ArchiveStore) => {
      runId = await store.beginRun({}, Date.now());
    };
    const ended = await stopped('sync_runs', true, (s) => s.finishRun(runId, 'ok', Date.now()), begin);
    expect(ended).toMatchObject({ value: { fetched: 0 } });
    const [run] = await archive.rows<{ outcome: string }>(`SELECT outcome FROM sync_runs WHERE id = ${runId}`);
    expect(run?.outcome).toBe('ok');
  });
});
