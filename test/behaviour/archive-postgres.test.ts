// The PostgreSQL engine from outside, the CLI in process: errors that name host and database but never the password, the
// config key, roles, schemas, a newer schema, a connection cut mid-sync, a watch outliving it, the BI view (nothing written
// in the working folder needs a process of its own: test/e2e/archive-processes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION as PG_SCHEMA_VERSION } from '../../src/archive/postgres/schema.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { adminQuery, freshDatabase, pgAdminUrl, withDatabase } from '../helpers/postgres.js';

const admin = pgAdminUrl();

describe.skipIf(!admin)('PostgreSQL archive', () => {
  let sandbox: Sandbox;
  const password = new URL(admin ?? 'postgres://x@y/z').password;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 800, seed: 71, clock: () => FIXED_START });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** Nothing the CLI prints may hold the password. */
  const noSecret = (r: { stdout: string; stderr: string }) => {
    expect(r.stdout).not.toContain(password);
    expect(r.stderr).not.toContain(password);
  };

  it('config set db takes the URL from stdin, shows it masked, and later commands use it', async () => {
    const { db, name } = await testArchive('postgres');
    const configDir = tempDir('rf-config-');
    const env = { RECALL_FEED_CONFIG_DIR: configDir };
    const set = await runMain(['config', 'set', 'db'], { env, stdin: `${db}\n` });
    expect(set.code).toBe(0);
    noSecret(set);
    const list = await runMain(['config', 'list'], { env });
    const get = await runMain(['config', 'get', 'db'], { env });
    for (const r of [list, get]) {
      noSecret(r);
      expect(r.stdout).toContain(db.replace(`:${password}@`, ':****@'));
    }
    const sync = await runMainAgainst(sandbox, ['sync', '-f', 'json'], { env });
    expect(JSON.parse(sync.stdout)).toMatchObject({ new: 800, total: 800 });
    const stats = await runMain(['stats', '--by', 'severity'], { env: { ...env, RECALL_FEED_FORCE_TTY: '1' } });
    expect(stats.stderr).toBe(`800 recalls in ${name}\n`);
  });

  it('each connection problem is one line with exit 13, naming host and database, never the password', async () => {
    const { url, name: database } = await freshDatabase('rf_err');
    const u = new URL(url);
    const wrong = new URL(url);
    wrong.password = 'not-the-password';
    const down = new URL(url);
    down.port = '9';
    const host = new URL(url);
    host.hostname = 'rf-nowhere.invalid';
    // Another machine: without a choice of TLS it would be refused before the lookup (test/unit/archive-pg-plain-text.test.ts).
    host.searchParams.set('sslmode', 'disable');
    const cases: [string, string, RegExp][] = [
      [
        'wrong password',
        wrong.toString(),
        new RegExp(
          `^error: PostgreSQL refused the login to database ${database} on 127\\.0\\.0\\.1: wrong user name or password\\nhint: check the user and password`,
        ),
      ],
      [
        'missing database',
        withDatabase(url, 'rf_no_such_db'),
        /^error: database rf_no_such_db on 127\.0\.0\.1 does not exist\nhint: create it/,
      ],
      [
        'server down',
        down.toString(),
        /^error: no PostgreSQL server answers at 127\.0\.0\.1 \(database .*\): .*\nhint: start the server/,
      ],
      ['unknown host', host.toString(), /^error: unknown database host rf-nowhere\.invalid\nhint: check the host name/],
    ];
    for (const [what, db, message] of cases) {
      const r = await runMainAgainst(sandbox, ['-v', 'sync', '--db', db]);
      expect(r.code, what).toBe(13);
      // -v names the archive first, without its password.
      expect(r.stderr, what).toMatch(/^archive: postgres:\/\/rf_admin@/);
      expect(r.stderr.replace(/^archive: .*\n/, ''), what).toMatch(message);
      expect(r.stderr, what).not.toContain('not-the-password');
      noSecret(r);
      const q = await runMain(['query', '--db', db]);
      expect(q.code, what).toBe(13);
    }
    expect(u.password).toBe(password);
  });

  it('a role without CREATE is refused with exit 13; a read-only role can query what another synced', async () => {
    const { url, name } = await freshDatabase('rf_roles');
    await adminQuery("DROP ROLE IF EXISTS rf_reader; CREATE ROLE rf_reader LOGIN PASSWORD 'reader-pw-7'");
    const reader = withDatabase(url, name, { name: 'rf_reader', password: 'reader-pw-7' });
    const refused = await runMainAgainst(sandbox, ['sync', '--db', reader]);
    expect(refused.code).toBe(13);
    expect(refused.stderr).toMatch(new RegExp(`^error: permission denied in database ${name} on 127\\.0\\.0\\.1: `));
    expect(refused.stderr).not.toContain('reader-pw-7');
    expect((await runMainAgainst(sandbox, ['sync', '--db', url])).code).toBe(0);
    await adminQuery(
      'GRANT USAGE ON SCHEMA recall_feed TO rf_reader; GRANT SELECT ON ALL TABLES IN SCHEMA recall_feed TO rf_reader',
      [],
      name,
    );
    const [asReader, asOwner] = await Promise.all([
      runMain(['query', '--db', reader, '-f', 'jsonl', '--severity', 'high']),
      runMain(['query', '--db', url, '-f', 'jsonl', '--severity', 'high']),
    ]);
    expect(asReader.code).toBe(0);
    expect(asReader.stdout).toBe(asOwner.stdout);
    await adminQuery(
      `REVOKE ALL ON ALL TABLES IN SCHEMA recall_feed FROM rf_reader; REVOKE ALL ON SCHEMA recall_feed FROM rf_reader`,
      [],
      name,
    );
    await adminQuery('DROP ROLE rf_reader');
  });

  it('--db-schema and ?schema= keep archives apart in one database; a newer schema is refused untouched', async () => {
    const { url, name } = await freshDatabase('rf_schema');
    await adminQuery('CREATE TABLE public.sales (id int)', [], name);
    const team = await runMainAgainst(sandbox, ['sync', '--db', url, '--db-schema', 'team_a', '-f', 'json']);
    expect(JSON.parse(team.stdout)).toMatchObject({ total: 800 });
    const other = await runMain(['query', '--db', `${url}?schema=team_b`]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^error: no archive at postgres:\/\/.* schema team_b\n/);
    const tables = await adminQuery<{ table_schema: string }>(
      "SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
      [],
      name,
    );
    expect(tables.map((t) => t.table_schema)).toEqual(['public', 'team_a']);
    await adminQuery("UPDATE team_a.archive_meta SET value = '99' WHERE key = 'schema_version'", [], name);
    const before = await adminQuery('SELECT count(*)::int AS n FROM team_a.sync_runs', [], name);
    const newer = await runMainAgainst(sandbox, ['sync', '--db', url, '--db-schema', 'team_a']);
    expect(newer.code).toBe(2);
    expect(newer.stderr).toContain(
      `was made by a newer recall-feed (archive schema 99; this one knows up to ${PG_SCHEMA_VERSION})\nhint: upgrade`,
    );
    expect(await adminQuery('SELECT count(*)::int AS n FROM team_a.sync_runs', [], name)).toEqual(before);
  });

  it('a connection cut mid-sync fails cleanly (exit 13, nothing half-written); the next sync completes it', async () => {
    const slow = await sandboxFor({ recordCount: 1500, seed: 72, clock: () => FIXED_START });
    try {
      slow.setFaults({ slow: 1, slowMs: 1500 });
      const archive = await testArchive('postgres');
      const dbName = new URL(archive.db).pathname.slice(1);
      const child = runMainAgainst(slow, ['sync', '--db', archive.db]);
      for (let i = 0; i < 300 && (await archive.held()).count === 0; i++) await new Promise((r) => setTimeout(r, 100));
      await adminQuery(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'recall-feed'",
        [dbName],
      );
      const cut = await child;
      expect(cut.code).toBe(13);
      expect(cut.stderr).toMatch(
        /^error: lost the connection to database \S+ on 127\.0\.0\.1; the page being stored was not committed\nhint: run the command again/,
      );
      const partial = await archive.held();
      expect(partial.integrity).toBe('ok');
      expect(partial.count % 500).toBe(0);
      slow.setFaults({});
      const rerun = await runMainAgainst(slow, ['sync', '--db', archive.db, '-f', 'json']);
      expect(JSON.parse(rerun.stdout)).toMatchObject({ new: 1500 - partial.count, total: 1500 });
      expect(await archive.held()).toEqual({ count: 1500, distinct: 1500, integrity: 'ok' });
    } finally {
      await slow.close();
    }
  });

  it('sync --watch outlives a lost connection: the round fails with a warning, the next one connects again', async () => {
    const live = await sandboxFor({ recordCount: 200, seed: 73 });
    try {
      const archive = await testArchive('postgres');
      const dbName = new URL(archive.db).pathname.slice(1);
      // In process: each pause between two rounds is the injected clock's; the watch stops as Ctrl-C would.
      let out = '';
      let cut = false;
      let added = false;
      let pauses = 0;
      const stop = new AbortController();
      const summaries = () => jsonLines(out.slice(0, out.lastIndexOf('\n') + 1));
      const clock = fakeClock(Date.now(), async () => {
        if (++pauses > 100) throw new Error(`no sync stored the new recalls after the cut\nstdout: ${out}`);
        if (!cut) {
          expect(summaries().length).toBeGreaterThanOrEqual(1);
          await adminQuery(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'recall-feed'",
            [dbName],
          );
          cut = true;
        } else if (!added) {
          live.addRecords(2);
          added = true;
        } else if (summaries().some((x) => x.new === 2)) stop.abort(new InterruptedError('SIGINT'));
      });
      const r = await runMainAgainst(live, ['sync', '--watch', '--interval', '1', '--db', archive.db, '-f', 'jsonl'], {
        clock,
        signal: stop.signal,
        onOutput: (stream, text) => {
          if (stream === 'stdout') out += text;
        },
      });
      expect(r.code).toBe(130);
      expect(await archive.held()).toEqual({ count: 202, distinct: 202, integrity: 'ok' });
      expect(r.stderr).toMatch(/lost the connection to database \S+ on 127\.0\.0\.1/);
      noSecret(r);
    } finally {
      await live.close();
    }
  });

  it('BI tools read recalls_view: one row per recall with typed columns', async () => {
    const archive = await testArchive('postgres');
    await runMainAgainst(sandbox, ['sync', '--db', archive.db]);
    const rows = await archive.rows<{ id: string; published_at: Date; risk_types: string[]; record: { id: number } }>(
      'SELECT id, published_at, risk_types, record FROM recalls_view ORDER BY id',
    );
    const window = expectedFeed(sandbox, { now: FIXED_START }).sort((a, b) => a.id - b.id);
    expect(rows.map((r) => Number(r.id))).toEqual(window.map((r) => r.id));
    expect(rows[0]!.published_at).toBeInstanceOf(Date);
    expect(rows[0]!.published_at.getTime()).toBe(Date.parse(`${window[0]!.published_at}Z`));
    expect(rows[0]!.risk_types).toEqual(window[0]!.risk_types);
    expect(rows[0]!.record).toEqual(window[0]);
  });
});
