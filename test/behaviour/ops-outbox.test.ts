// The archive's outbox in doctor and in the metrics file, on both engines: ok when nothing is owed, warn while rows
// retry or wait too long, fail once rows are given up; the sync's textfile carries the backlog; doctor migrates nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS as PG_MIGRATIONS } from '../../src/archive/postgres/schema.js';
import { MIGRATIONS } from '../../src/archive/sqlite/schema.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { adminQuery, type Engine, ENGINES, freshDatabase } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

const PROMTOOL = '/usr/bin/promtool';

/** A webhook receiver that refuses every delivery (503): what it refuses stays in the outbox, retrying. */
async function refusingHook() {
  const server = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    req.on('end', () => res.writeHead(503).end());
  });
  return `${server.url}/hook`;
}

/** Changes the archive behind the CLI's back (to put its outbox in a given state). */
async function write(archive: TestArchive, sql: string): Promise<void> {
  if (archive.engine === 'postgres') {
    await archive.rows(sql);
    return;
  }
  const db = new Database(archive.db);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

async function outboxCheck(sandbox: Awaited<ReturnType<typeof sandboxFor>>, db: string) {
  const r = await runMainAgainst(sandbox, ['doctor', '--db', db, '-f', 'json']);
  const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks;
  return { code: r.code, outbox: checks.find((c) => c.name === 'outbox'), names: checks.map((c) => c.name) };
}

describe.each(ENGINES)('the outbox on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('doctor: ok when nothing is owed, warn while retrying or late, fail (exit 16) with the SQL to see and retry', async () => {
    const sandbox = await sandboxFor({ recordCount: 6, seed: 31 });
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const empty = await outboxCheck(sandbox, archive.db);
    expect(empty.outbox).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^nothing owed/) });
    expect(empty.code).toBe(0);

    // Six more recalls, each refused by the webhook: six rows pending, all retrying.
    sandbox.addRecords(6);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', await refusingHook()]);
    expect(sync.stderr).toMatch(/stays in the archive's outbox/);
    const retrying = await outboxCheck(sandbox, archive.db);
    expect(retrying.outbox?.status).toBe('warn');
    expect(retrying.outbox?.detail).toMatch(/^6 pending, 6 of them retrying; the oldest queued \S+ \(0 min ago\)$/);
    expect(retrying.outbox?.hint).toMatch(/WHERE state = 'pending'/);
    expect(retrying.code).toBe(15);

    // Not yet tried and freshly queued: the next delivery takes them, nothing to warn about.
    await write(archive, 'UPDATE outbox SET last_error = NULL');
    const fresh = await outboxCheck(sandbox, archive.db);
    expect(fresh.outbox).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^6 pending, 0 of them retrying/),
    });
    expect(fresh.code).toBe(0);

    // Queued by a sync 20 minutes ago and still owed: late.
    const ago = new Date(Date.now() - 20 * 60_000).toISOString();
    await write(archive, `UPDATE sync_runs SET started_at = '${ago}' WHERE id IN (SELECT created_run FROM outbox)`);
    const late = await outboxCheck(sandbox, archive.db);
    expect(late.outbox?.status).toBe('warn');
    expect(late.outbox?.detail).toContain(`the oldest queued ${ago} (20 min ago)`);
    expect(late.code).toBe(15);

    // Two rows given up: a failure, with how to see them and queue them again.
    await write(archive, "UPDATE outbox SET state = 'failed' WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT 2)");
    const failed = await outboxCheck(sandbox, archive.db);
    expect(failed.outbox?.status).toBe('fail');
    expect(failed.outbox?.detail).toMatch(/^2 given up .*, 4 pending, 0 retrying$/);
    const table = engine === 'postgres' ? 'recall_feed.outbox' : 'outbox';
    expect(failed.outbox?.hint).toContain(`FROM ${table} WHERE state = 'failed'`);
    expect(failed.outbox?.hint).toContain(
      `UPDATE ${table} SET state = 'pending', lease_until = NULL WHERE state = 'failed'`,
    );
    expect(failed.code).toBe(16);
  });

  it('the metrics file of a sync carries the outbox backlog, and promtool accepts it', async (ctx) => {
    const sandbox = await sandboxFor({ recordCount: 5, seed: 32 });
    const archive = await testArchive(engine);
    const file = path.join(tempDir('rf-outbox-metrics-'), 'sync.prom');
    const r = await runMainAgainst(sandbox, [
      'sync',
      '--db',
      archive.db,
      '--webhook',
      await refusingHook(),
      '--metrics-file',
      file,
    ]);
    expect(r.code, r.stderr).toBe(0);
    let text = readFileSync(file, 'utf8');
    expect(text).toContain('\nrecall_feed_outbox_pending 5\n');
    expect(text).toContain('\nrecall_feed_outbox_retrying 5\n');
    expect(text).toContain('\nrecall_feed_outbox_failed 0\n');
    await write(archive, "UPDATE outbox SET state = 'failed' WHERE id = (SELECT min(id) FROM outbox)");
    // A sync without actions delivers nothing, and still reports what the archive owes.
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--metrics-file', file])).code).toBe(0);
    text = readFileSync(file, 'utf8');
    expect(text).toContain('\nrecall_feed_outbox_pending 4\n');
    expect(text).toContain('\nrecall_feed_outbox_failed 1\n');
    if (!existsSync(PROMTOOL)) {
      ctx.skip(`LOUD: ${PROMTOOL} is missing (Debian package prometheus): the textfile was not linted`);
      return;
    }
    expect(execFileSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' })).toBe('');
  });

  it('doctor opens an archive from before the outbox read-only: outbox ok, nothing migrated', async () => {
    const { db, version } = await beforeOutbox(engine);
    const before = await version();
    const r = await runMain(['--sandbox', 'doctor', '--db', db, '-f', 'json']);
    const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks;
    expect(checks.find((c) => c.name === 'archive')?.status).toBe('ok');
    expect(checks.find((c) => c.name === 'outbox')).toMatchObject({ status: 'ok' });
    expect(await version()).toBe(before);
  });
});

/** An archive as the version before the outbox left it (SQLite 4, PostgreSQL 3), and its schema version read back. */
async function beforeOutbox(engine: Engine): Promise<{ db: string; version: () => Promise<string> }> {
  if (engine === 'sqlite') {
    const file = path.join(tempDir('rf-before-outbox-'), 'old.db');
    const db = new Database(file);
    for (const m of MIGRATIONS.slice(0, 4)) db.exec(m);
    db.pragma('user_version = 4');
    db.pragma(`application_id = ${0x52434641}`);
    db.close();
    const version = async () => {
      const conn = new Database(file, { readonly: true });
      try {
        const tables = conn.prepare("SELECT name FROM sqlite_master WHERE name = 'outbox'").all().length;
        return `${String(conn.pragma('user_version', { simple: true }))} outbox tables ${tables}`;
      } finally {
        conn.close();
      }
    };
    return { db: file, version };
  }
  const { url, name } = await freshDatabase('rf_old_outbox');
  const s = '"recall_feed"';
  await adminQuery(
    `CREATE SCHEMA ${s}; ${PG_MIGRATIONS.slice(0, 3)
      .map((m) => m(s))
      .join(';\n')};
     INSERT INTO ${s}.archive_meta VALUES ('application', 'recall-feed'), ('schema_version', '3')`,
    [],
    name,
  );
  const version = async () => {
    const [meta] = await adminQuery<{ value: string }>(
      `SELECT value FROM ${s}.archive_meta WHERE key = 'schema_version'`,
      [],
      name,
    );
    const [outbox] = await adminQuery<{ ok: boolean }>(
      "SELECT to_regclass('recall_feed.outbox') IS NOT NULL AS ok",
      [],
      name,
    );
    return `${meta?.value} outbox ${String(outbox?.ok)}`;
  };
  return { db: url, version };
}
