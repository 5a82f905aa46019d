// The PostgreSQL archive when the server makes a writer wait or says no: a write lock held by another connection (the
// wait is bounded, and SIGTERM cancels it with exit 130 and nothing written), lock and statement timeouts, a URL with an
// empty host (PGHOST), and sslmode=require without pg's nine-line warning.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { pgAdminUrl } from '../helpers/postgres.js';
import { untilValue } from '../helpers/wait.js';

const admin = pgAdminUrl();

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

describe.skipIf(!admin)('PostgreSQL waits and refusals', () => {
  let sandbox: Sandbox;
  const password = new URL(admin ?? 'postgres://x@y/z').password;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 40, seed: 7 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('the write lock: a bounded wait (exit 13, named) and SIGTERM while waiting (exit 130), nothing written', async () => {
    const archive = await testArchive('postgres');
    expect((await runAgainst(sandbox, ['sync', '--db', archive.db])).exitCode).toBe(0);
    sandbox.addRecords(3);
    const lock = await holder(archive.db);
    await lock.query('BEGIN');
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('recall-feed recall_feed write'))");

    const bounded = await runAgainst(sandbox, ['sync', '--db', archive.db], {
      env: { RECALL_FEED_DB_LOCK_WAIT: '1' },
    });
    expect(bounded.exitCode).toBe(13);
    const database = new URL(archive.db).pathname.slice(1);
    expect(bounded.stderr).toContain(
      `error: another writer has held the write lock of database ${database} on 127.0.0.1 for more than 1 s; nothing was written\n`,
    );
    expect(bounded.stderr).toMatch(/hint: .*RECALL_FEED_DB_LOCK_WAIT/);
    expect(bounded.stderr).not.toContain(password);
    expect((await archive.held()).count).toBe(40);

    const child = runAgainst(sandbox, ['sync', '--db', archive.db]);
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
    expect((await runAgainst(sandbox, ['sync', '--db', archive.db])).exitCode).toBe(0);
    expect((await archive.held()).count).toBe(43);
  });

  it('match --open-cases and cases steps wait for the write lock within the same bound (exit 13), nothing written', async () => {
    const archive = await testArchive('postgres');
    expect((await runAgainst(sandbox, ['sync', '--db', archive.db])).exitCode).toBe(0);
    const stored = await runAgainst(sandbox, ['query', '--db', archive.db, '-f', 'jsonl']);
    const ean = stored.stdout
      .trim()
      .split('\n')
      .flatMap(
        (line) =>
          (JSON.parse(line) as { standard_identifiers_and_barcodes: { type: string; value: string }[] })
            .standard_identifiers_and_barcodes,
      )
      .find((c) => c.type === 'EAN' && /^\d{13}$/.test(c.value));
    if (!ean) throw new Error('the sandbox served no record with an EAN');
    const catalogue = path.join(tempDir('rf-wait-cat-'), 'c.csv');
    writeFileSync(catalogue, `sku,ean\nS-1,${ean.value}\n`);
    const open = ['match', '--archive', '--open-cases', '--catalog', catalogue, '--db', archive.db];
    const lock = await holder(archive.db);
    await lock.query('BEGIN');
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('recall-feed recall_feed write'))");
    const waited = await runAgainst(sandbox, open, { env: { RECALL_FEED_DB_LOCK_WAIT: '1' } });
    expect(waited.exitCode).toBe(13);
    expect(waited.stderr).toContain('for more than 1 s; nothing was written');
    await lock.query('COMMIT');
    expect((await runAgainst(sandbox, open)).exitCode).toBe(0);
    const listed = await runAgainst(sandbox, ['cases', '--db', archive.db, '-f', 'jsonl']);
    const id = String((JSON.parse(listed.stdout.split('\n')[0] ?? '{}') as { id?: number }).id);
    await lock.query('BEGIN');
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('recall-feed recall_feed write'))");
    const step = await runAgainst(sandbox, ['cases', 'wait', id, '--db', archive.db, '--note', 'asked the supplier'], {
      env: { RECALL_FEED_DB_LOCK_WAIT: '1' },
    });
    expect(step.exitCode).toBe(13);
    await lock.query('COMMIT');
    const shown = await runAgainst(sandbox, ['cases', 'show', id, '--db', archive.db, '-f', 'json']);
    expect(shown.stdout).not.toContain('asked the supplier');
  });

  it("the migration lock: a first run waits for another's within the same bound", async () => {
    const archive = await testArchive('postgres');
    const lock = await holder(archive.db);
    await lock.query("SELECT pg_advisory_lock(hashtext('recall-feed recall_feed migrate'))");
    const r = await runAgainst(sandbox, ['sync', '--db', archive.db], { env: { RECALL_FEED_DB_LOCK_WAIT: '1' } });
    expect(r.exitCode).toBe(13);
    expect(r.stderr).toMatch(
      /^error: another recall-feed has been preparing the archive's schema in database \w+ on 127\.0\.0\.1 for more than 1 s; nothing was written\n/,
    );
    expect((await archive.held()).integrity).toBe('no archive yet');
  });

  it('lock_timeout (55P03) and statement_timeout (57014) are exit 13 naming host and database, with a hint', async () => {
    const archive = await testArchive('postgres');
    expect((await runAgainst(sandbox, ['sync', '--db', archive.db])).exitCode).toBe(0);
    const lock = await holder(archive.db);
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE recall_feed.recalls IN ACCESS EXCLUSIVE MODE');
    const database = new URL(archive.db).pathname.slice(1);
    for (const [setting, said, hint] of [
      ['lock_timeout', 'gave up waiting for a lock in', /hint: another writer/],
      ['statement_timeout', 'a statement ran past statement_timeout in', /hint: raise the role's statement_timeout/],
    ] as const) {
      const url = new URL(archive.db);
      url.searchParams.set('options', `-c ${setting}=300`);
      const r = await runCli(['query', '--db', url.toString(), '--limit', '1']);
      expect(r.exitCode).toBe(13);
      expect(r.stderr).toContain(`error: ${said} database ${database} on 127.0.0.1`);
      expect(r.stderr).toMatch(hint);
      expect(r.stderr).not.toContain(password);
    }
    await lock.query('ROLLBACK');
  });

  it('postgres://user:password@/db takes the host and port from PGHOST and PGPORT', async () => {
    const archive = await testArchive('postgres');
    const url = new URL(archive.db);
    const noHost = `postgres://${url.username}:${url.password}@${url.pathname}`;
    const r = await runAgainst(sandbox, ['-v', 'sync', '--db', noHost], {
      env: { PGHOST: url.hostname, PGPORT: url.port },
    });
    expect(r.stderr).not.toContain(password);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`archive: postgres://${url.username}@${url.pathname}\n`);
    expect((await archive.held()).count).toBeGreaterThanOrEqual(40);
  });

  it('sslmode=require: no node-postgres security warning, one error line (the test server has no TLS)', async () => {
    const archive = await testArchive('postgres');
    const r = await runAgainst(sandbox, ['sync', '--db', `${archive.db}?sslmode=require`]);
    expect(r.stderr).not.toMatch(/SECURITY WARNING|Warning/);
    expect(r.exitCode).toBe(13);
    expect(r.stderr).toMatch(
      /^error: the TLS connection to database \w+ on 127\.0\.0\.1 failed: .*\nhint: check sslmode/,
    );
  });
});
