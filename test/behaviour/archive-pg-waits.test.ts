// The PostgreSQL archive when the server makes a writer wait or says no, the CLI in process: a write lock held by another
// connection (the wait is bounded), the migration lock, lock and statement timeouts. What needs a process (SIGTERM while
// waiting, PGHOST read by pg from the process's environment, pg's own warning on sslmode=require): test/e2e/archive-processes.test.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { pgAdminUrl } from '../helpers/postgres.js';

const admin = pgAdminUrl();

/** A connection of the test's own, holding what it is told to until the test ends. */
async function holder(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  deferCleanup(() => client.end());
  return client;
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

  it('the write lock: a bounded wait (exit 13, named), nothing written; the next sync after it is let go stores all', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    sandbox.addRecords(3);
    const lock = await holder(archive.db);
    await lock.query('BEGIN');
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('recall-feed recall_feed write'))");

    const bounded = await runMainAgainst(sandbox, ['sync', '--db', archive.db], {
      env: { RECALL_FEED_DB_LOCK_WAIT: '1' },
    });
    expect(bounded.code).toBe(13);
    const database = new URL(archive.db).pathname.slice(1);
    expect(bounded.stderr).toContain(
      `error: another writer has held the write lock of database ${database} on 127.0.0.1 for more than 1 s; nothing was written\n`,
    );
    expect(bounded.stderr).toMatch(/hint: .*RECALL_FEED_DB_LOCK_WAIT/);
    expect(bounded.stderr).not.toContain(password);
    expect((await archive.held()).count).toBe(40);

    await lock.query('COMMIT');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    expect((await archive.held()).count).toBe(43);
  });

  it('match --open-cases and cases steps wait for the write lock within the same bound (exit 13), nothing written', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const stored = await runMainAgainst(sandbox, ['query', '--db', archive.db, '-f', 'jsonl']);
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
    const waited = await runMainAgainst(sandbox, open, { env: { RECALL_FEED_DB_LOCK_WAIT: '1' } });
    expect(waited.code).toBe(13);
    expect(waited.stderr).toContain('for more than 1 s; nothing was written');
    await lock.query('COMMIT');
    expect((await runMainAgainst(sandbox, open)).code).toBe(0);
    const listed = await runMainAgainst(sandbox, ['cases', '--db', archive.db, '-f', 'jsonl']);
    const id = String((JSON.parse(listed.stdout.split('\n')[0] ?? '{}') as { id?: number }).id);
    await lock.query('BEGIN');
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('recall-feed recall_feed write'))");
    const step = await runMainAgainst(
      sandbox,
      ['cases', 'wait', id, '--db', archive.db, '--note', 'asked the supplier'],
      {
        env: { RECALL_FEED_DB_LOCK_WAIT: '1' },
      },
    );
    expect(step.code).toBe(13);
    await lock.query('COMMIT');
    const shown = await runMainAgainst(sandbox, ['cases', 'show', id, '--db', archive.db, '-f', 'json']);
    expect(shown.stdout).not.toContain('asked the supplier');
  });

  it("the migration lock: a first run waits for another's within the same bound", async () => {
    const archive = await testArchive('postgres');
    const lock = await holder(archive.db);
    await lock.query("SELECT pg_advisory_lock(hashtext('recall-feed recall_feed migrate'))");
    const r = await runMainAgainst(sandbox, ['sync', '--db', archive.db], { env: { RECALL_FEED_DB_LOCK_WAIT: '1' } });
    expect(r.code).toBe(13);
    expect(r.stderr).toMatch(
      /^error: another recall-feed has been preparing the archive's schema in database \w+ on 127\.0\.0\.1 for more than 1 s; nothing was written\n/,
    );
    expect((await archive.held()).integrity).toBe('no archive yet');
  });

  it('lock_timeout (55P03) and statement_timeout (57014) are exit 13 naming host and database, with a hint', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
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
      const r = await runMain(['query', '--db', url.toString(), '--limit', '1']);
      expect(r.code).toBe(13);
      expect(r.stderr).toContain(`error: ${said} database ${database} on 127.0.0.1`);
      expect(r.stderr).toMatch(hint);
      expect(r.stderr).not.toContain(password);
    }
    await lock.query('ROLLBACK');
  });
});
