// sync --webhook on PostgreSQL when the database connection drops as a delivered row is being marked done (a DBA's
// pg_terminate_backend, a restart, a pooler): the mark is tried once more on a fresh connection, so a recall the
// receiver got is not posted again (docs/archive.md: "none without" a host killed). When that fails too, the run ends
// (exit 13, in words that do not speak of a page: every page was committed) and the rows it claimed and did not try
// are released, so that the next sync delivers them at once. The mark is held up by a lock on the outbox that the test
// takes as the receiver gets the first post, and the connection cut while it waits.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { bodyServer } from '../helpers/handler-server.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { adminQuery, pgAdminUrl } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { untilValue } from '../helpers/wait.js';

const admin = pgAdminUrl();

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A receiver keeping each post's recall id; the first is answered 200 only once `answerFirst` is called. */
async function heldReceiver() {
  const posted: string[] = [];
  let answer: (() => void) | undefined;
  const first = new Promise<void>((resolve) => {
    answer = resolve;
  });
  let arrived = () => {};
  const firstArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = await bodyServer((body, _req, res) => {
    posted.push(String((JSON.parse(body) as { id: unknown }).id));
    if (posted.length > 1) return void res.end('ok');
    arrived();
    void first.then(() => res.end('ok'));
  });
  return { url: `${server.url}/hooks/T0/B0/secret`, posted, firstArrived, answerFirst: () => answer?.() };
}

/** A session of the test's own that holds the outbox against updates (SHARE) until `release`. */
async function outboxLock(archive: TestArchive): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: archive.db });
  await client.connect();
  deferCleanup(() => client.end());
  await client.query('BEGIN');
  await client.query('LOCK TABLE recall_feed.outbox IN SHARE MODE');
  return { release: () => client.query('ROLLBACK').then(() => {}) };
}

/** Ends the recall-feed connection that waits for a lock (not one of `spared`, ended before); its pid. */
async function cutWaiting(archive: TestArchive, spared: number[] = []): Promise<number> {
  const database = new URL(archive.db).pathname.slice(1);
  const [row] = await untilValue(
    `a recall-feed connection to ${database} waiting for a lock`,
    () =>
      adminQuery<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'recall-feed'
            AND wait_event_type = 'Lock' AND NOT (pid = ANY($2::int[]))`,
        [database, spared],
      ),
    (rows) => rows.length > 0,
  );
  await adminQuery('SELECT pg_terminate_backend($1)', [row!.pid]);
  return row!.pid;
}

interface OutboxRow {
  recall_id: unknown;
  state: string;
  lease_until: unknown;
  attempts: unknown;
}

const outboxOf = (archive: TestArchive) =>
  archive.rows<OutboxRow>('SELECT recall_id, state, lease_until, attempts FROM outbox ORDER BY id');

describe.skipIf(!admin)('sync --webhook (postgres): the connection lost as a delivered row is marked', () => {
  it('the mark is tried again on a new connection: the run succeeds and no recall is posted twice', async () => {
    sandbox = await sandboxFor({ seed: 913, recordCount: 5 });
    const archive = await testArchive('postgres');
    const hook = await heldReceiver();
    const sync = runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url]);
    await hook.firstArrived;
    const lock = await outboxLock(archive);
    hook.answerFirst();
    await cutWaiting(archive);
    await lock.release();
    const r = await sync;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = await outboxOf(archive);
    const ids = rows.map((row) => String(row.recall_id));
    expect(ids).toHaveLength(5);
    expect(rows.map((row) => row.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
    // Each recall posted once, in the outbox's order.
    expect(hook.posted).toEqual(ids);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url])).code).toBe(0);
    expect(hook.posted).toEqual(ids);
  }, 60_000);

  it('lost again on the retry: exit 13 with no word of a page; the rows not tried are released for the next sync', async () => {
    sandbox = await sandboxFor({ seed: 914, recordCount: 5 });
    const archive = await testArchive('postgres');
    const hook = await heldReceiver();
    const sync = runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url]);
    await hook.firstArrived;
    const lock = await outboxLock(archive);
    hook.answerFirst();
    const first = await cutWaiting(archive);
    await cutWaiting(archive, [first]);
    await lock.release();
    const r = await sync;
    const database = new URL(archive.db).pathname.slice(1);
    expect(r.stderr).toBe(
      `error: lost the connection to database ${database} on 127.0.0.1; only what this command committed before is kept\nhint: run it again\n`,
    );
    expect(r.code).toBe(13);
    const rows = await outboxOf(archive);
    const ids = rows.map((row) => String(row.recall_id));
    expect(hook.posted).toEqual([ids[0]]);
    // The one posted keeps its lease (marking it failed: released, it would be posted again at once); the four not
    // tried are owed as if never claimed.
    const shape = rows.map((row) => [
      row.state,
      row.lease_until === null ? 'no lease' : 'leased',
      Number(row.attempts),
    ]);
    expect(shape).toEqual([
      ['pending', 'leased', 1],
      ['pending', 'no lease', 0],
      ['pending', 'no lease', 0],
      ['pending', 'no lease', 0],
      ['pending', 'no lease', 0],
    ]);
    // The next sync, at once, delivers the four; the first is not posted again while its lease lasts.
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url])).code).toBe(0);
    expect(hook.posted).toEqual(ids);
  }, 60_000);
});
