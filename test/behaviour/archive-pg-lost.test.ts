import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/open-archive.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { type MainResult, runMain, runMainAgainst } from '../helpers/in-process.js';
import { openOneCase } from '../helpers/open-case.js';
import { adminQuery, freshDatabase, pgAdminUrl } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { untilValue } from '../helpers/wait.js';

const admin = pgAdminUrl();

/** A connection of the test's own, holding what it is told to until the test ends. */
async function holder(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  deferCleanup(() => client.end());
  return client;
}

/** Ends every recall-feed connection to `database` (waiting, as `waiting` says, for a lock first): what a DBA or a restart does. */
async function terminate(database: string, waiting: boolean): Promise<void> {
  const lock = waiting ? "AND wait_event_type = 'Lock'" : '';
  const backends = `FROM pg_stat_activity WHERE datname = $1 AND application_name = 'recall-feed' ${lock}`;
  await untilValue(
    `a recall-feed connection to ${database}${waiting ? ' waiting for a lock' : ''}`,
    () => adminQuery<{ n: number }>(`SELECT count(*)::int AS n ${backends}`, [database]),
    (rows) => (rows[0]?.n ?? 0) > 0,
  );
  await adminQuery(`SELECT pg_terminate_backend(pid) ${backends}`, [database]);
}

describe.skipIf(!admin)('a lost PostgreSQL connection says what of the command was kept', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 40, seed: 9 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const lost = (database: string, kept: string) =>
    `error: lost the connection to database ${database} on 127.0.0.1; ${kept}\nhint: run it again\n`;

  it('query and stats cut while they wait for a table: nothing of this command was committed, run it again', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const database = new URL(archive.db).pathname.slice(1);
    const lock = await holder(archive.db);
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE recall_feed.recalls, recall_feed.recall_stats IN ACCESS EXCLUSIVE MODE');
    for (const args of [['query', '--limit', '1'], ['stats']]) {
      const run = runMain([...args, '--db', archive.db]);
      await terminate(database, true);
      const r: MainResult = await run;
      expect(r.stderr, args[0]).toBe(lost(database, 'nothing of this command was committed'));
      expect(r.code).toBe(13);
      expect(r.stdout).toBe('');
    }
    await lock.query('ROLLBACK');
  });

  it('a case step cut while it waits for the write lock: nothing of it was committed, run it again', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const id = await openOneCase(sandbox, archive.db);
    const database = new URL(archive.db).pathname.slice(1);
    const lock = await holder(archive.db);
    await lock.query('BEGIN');
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('recall-feed recall_feed write'))");
    const step = runMain(['cases', 'wait', id, '--note', 'asked the supplier', '--db', archive.db]);
    await terminate(database, true);
    const r = await step;
    expect(r.stderr).toBe(lost(database, 'nothing of this command was committed'));
    expect(r.code).toBe(13);
    await lock.query('COMMIT');
    const shown = await runMain(['cases', 'show', id, '--db', archive.db, '-f', 'json']);
    expect(shown.stdout).not.toContain('asked the supplier');
  });

  it('a store that committed a write before says only that is kept', async () => {
    const { url, name } = await freshDatabase('rf_lost');
    const archive = await openArchive(url, { create: true });
    try {
      await archive.claimOrigin('api');
      await terminate(name, false);
      await expect(archive.extent()).rejects.toThrow(
        `lost the connection to database ${name} on 127.0.0.1; only what this command committed before is kept`,
      );
    } finally {
      await archive.close();
    }
  });

  it('a connection the server closes as it is made (TLS first, to a server without TLS) could not connect', async () => {
    const archive = await testArchive('postgres');
    const database = new URL(archive.db).pathname.slice(1);
    const r = await runMain(['query', '--db', `${archive.db}?sslnegotiation=direct`]);
    expect(r.stderr).toBe(
      `error: could not connect to database ${database} on 127.0.0.1: the server closed the connection (Client network socket disconnected before secure TLS connection was established)\n` +
        'hint: check the host and port in the --db URL, and sslnegotiation: a server without TLS closes a connection that starts with it (docs/archive.md: TLS)\n',
    );
    expect(r.code).toBe(13);
    expect(r.stderr).not.toContain('lost');
  });
});
