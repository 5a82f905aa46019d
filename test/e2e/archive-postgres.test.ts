// The PostgreSQL engine from outside: errors that name host and database but never the password, the config key,
// roles, schemas, a newer schema, a connection cut mid-sync, the BI view, and nothing written in the working folder.
import { readdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION as PG_SCHEMA_VERSION } from '../../src/archive/postgres/schema.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { FIXED_START, jsonLines, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { expectedFeed } from '../helpers/expected.js';
import { adminQuery, freshDatabase, pgAdminUrl, withDatabase } from '../helpers/postgres.js';
import { until } from '../helpers/wait.js';

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

  it('sync, query, stats, show and match --archive with a URL write tables there and nothing in the working folder', async () => {
    const { db, name } = await testArchive('postgres');
    const cwd = tempDir('rf-cwd-');
    const sync = await runAgainst(sandbox, ['-v', 'sync', '--db', db], { cwd });
    expect(sync.exitCode).toBe(0);
    noSecret(sync);
    expect(sync.stderr).toContain(`archive: ${name}\n`);
    const query = await runCli(['-v', 'query', '--db', db, '-f', 'jsonl', '--limit', '3'], { cwd });
    noSecret(query);
    expect(jsonLines(query.stdout).map((r) => r.id)).toEqual(
      expectedFeed(sandbox, { now: FIXED_START })
        .slice(0, 3)
        .map((r) => r.id),
    );
    const stats = await runCli(['stats', '--db', db, '--by', 'source', '-f', 'json'], { cwd });
    expect(stats.exitCode).toBe(0);
    const [first] = expectedFeed(sandbox, { now: FIXED_START });
    const show = await runCli(['show', String(first!.id), '--history', '-f', 'jsonl', '--db', db], { cwd });
    expect(show.stdout).toBe(`${JSON.stringify(first)}\n`);
    const modelled = expectedFeed(sandbox, { now: FIXED_START }).find(
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
      { sources: null, hours: 24, base_url: new URL(sandbox.url).origin },
    ]);
  });

  it('config set db takes the URL from stdin, shows it masked, and later commands use it', async () => {
    const { db, name } = await testArchive('postgres');
    const configDir = tempDir('rf-config-');
    const env = { RECALL_FEED_CONFIG_DIR: configDir };
    const set = await runCli(['config', 'set', 'db'], { env, input: `${db}\n` });
    expect(set.exitCode).toBe(0);
    noSecret(set);
    const list = await runCli(['config', 'list'], { env });
    const get = await runCli(['config', 'get', 'db'], { env });
    for (const r of [list, get]) {
      noSecret(r);
      expect(r.stdout).toContain(db.replace(`:${password}@`, ':****@'));
    }
    const sync = await runAgainst(sandbox, ['sync', '-f', 'json'], { env });
    expect(JSON.parse(sync.stdout)).toMatchObject({ new: 800, total: 800 });
    const stats = await runCli(['stats', '--by', 'severity'], { env: { ...env, RECALL_FEED_FORCE_TTY: '1' } });
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
      const r = await runAgainst(sandbox, ['-v', 'sync', '--db', db]);
      expect(r.exitCode, what).toBe(13);
      // -v names the archive first, without its password.
      expect(r.stderr, what).toMatch(/^archive: postgres:\/\/rf_admin@/);
      expect(r.stderr.replace(/^archive: .*\n/, ''), what).toMatch(message);
      expect(r.stderr, what).not.toContain('not-the-password');
      noSecret(r);
      const q = await runCli(['query', '--db', db]);
      expect(q.exitCode, what).toBe(13);
    }
    expect(u.password).toBe(password);
  });

  it('a role without CREATE is refused with exit 13; a read-only role can query what another synced', async () => {
    const { url, name } = await freshDatabase('rf_roles');
    await adminQuery("DROP ROLE IF EXISTS rf_reader; CREATE ROLE rf_reader LOGIN PASSWORD 'reader-pw-7'");
    const reader = withDatabase(url, name, { name: 'rf_reader', password: 'reader-pw-7' });
    const refused = await runAgainst(sandbox, ['sync', '--db', reader]);
    expect(refused.exitCode).toBe(13);
    expect(refused.stderr).toMatch(new RegExp(`^error: permission denied in database ${name} on 127\\.0\\.0\\.1: `));
    expect(refused.stderr).not.toContain('reader-pw-7');
    expect((await runAgainst(sandbox, ['sync', '--db', url])).exitCode).toBe(0);
    await adminQuery(
      'GRANT USAGE ON SCHEMA recall_feed TO rf_reader; GRANT SELECT ON ALL TABLES IN SCHEMA recall_feed TO rf_reader',
      [],
      name,
    );
    const [asReader, asOwner] = await Promise.all([
      runCli(['query', '--db', reader, '-f', 'jsonl', '--severity', 'high']),
      runCli(['query', '--db', url, '-f', 'jsonl', '--severity', 'high']),
    ]);
    expect(asReader.exitCode).toBe(0);
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
    const team = await runAgainst(sandbox, ['sync', '--db', url, '--db-schema', 'team_a', '-f', 'json']);
    expect(JSON.parse(team.stdout)).toMatchObject({ total: 800 });
    const other = await runCli(['query', '--db', `${url}?schema=team_b`]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/^error: no archive at postgres:\/\/.* schema team_b\n/);
    const tables = await adminQuery<{ table_schema: string }>(
      "SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
      [],
      name,
    );
    expect(tables.map((t) => t.table_schema)).toEqual(['public', 'team_a']);
    await adminQuery("UPDATE team_a.archive_meta SET value = '99' WHERE key = 'schema_version'", [], name);
    const before = await adminQuery('SELECT count(*)::int AS n FROM team_a.sync_runs', [], name);
    const newer = await runAgainst(sandbox, ['sync', '--db', url, '--db-schema', 'team_a']);
    expect(newer.exitCode).toBe(2);
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
      const child = runAgainst(slow, ['sync', '--db', archive.db]);
      for (let i = 0; i < 300 && (await archive.held()).count === 0; i++) await new Promise((r) => setTimeout(r, 100));
      await adminQuery(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'recall-feed'",
        [dbName],
      );
      const cut = await child;
      expect(cut.exitCode).toBe(13);
      expect(cut.stderr).toMatch(
        /^error: lost the connection to database \S+ on 127\.0\.0\.1; the page being stored was not committed\nhint: run the command again/,
      );
      const partial = await archive.held();
      expect(partial.integrity).toBe('ok');
      expect(partial.count % 500).toBe(0);
      slow.setFaults({});
      const rerun = await runAgainst(slow, ['sync', '--db', archive.db, '-f', 'json']);
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
      const child = runAgainst(live, ['sync', '--watch', '--interval', '1', '--db', archive.db, '-f', 'json'], {
        timeout: 120_000,
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const summaries = () => jsonLines(out.slice(0, out.lastIndexOf('\n') + 1));
      await until('the first sync', () => summaries().length >= 1, 30_000);
      await adminQuery(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'recall-feed'",
        [dbName],
      );
      live.addRecords(2);
      await until(
        'a sync after the cut that stores the new recalls',
        () => summaries().some((x) => x.new === 2),
        60_000,
      );
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(await archive.held()).toEqual({ count: 202, distinct: 202, integrity: 'ok' });
      expect(r.stderr).toMatch(/lost the connection to database \S+ on 127\.0\.0\.1/);
      noSecret(r);
    } finally {
      await live.close();
    }
  });

  it('BI tools read recalls_view: one row per recall with typed columns', async () => {
    const archive = await testArchive('postgres');
    await runAgainst(sandbox, ['sync', '--db', archive.db]);
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
