// The PostgreSQL grants of docs/archive.md, run as written (names made unique to this run) against the real server:
// "before the first sync" lets the syncing role create the archive and the reader read it; "after the first sync"
// makes an existing archive readable.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { adminQuery, freshDatabase, pgAdminUrl, withDatabase } from '../helpers/postgres.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/archive.md');

/** The SQL block after `<!-- grants: <which> -->` in docs/archive.md, as statements. */
function grants(which: string): string[] {
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf(`<!-- grants: ${which} -->`);
  expect(at, `docs/archive.md has no "grants: ${which}" block`).toBeGreaterThan(-1);
  const block = /```sql\n([\s\S]*?)```/.exec(text.slice(at))?.[1] ?? '';
  return block
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Roles are the cluster's, not the database's: unique names, dropped (with what they own) when the test ends. */
function roles(database: string) {
  const tag = randomBytes(4).toString('hex');
  const names = { recall_sync: `recall_sync_${tag}`, analyst: `analyst_${tag}` };
  const passwords = { recall_sync: `sync-${tag}`, analyst: `read-${tag}` };
  const adapt = (sql: string) =>
    sql
      .replace(/'change-me-sync'/g, `'${passwords.recall_sync}'`)
      .replace(/'change-me-analyst'/g, `'${passwords.analyst}'`)
      .replace(/\brecall_sync\b/g, names.recall_sync)
      .replace(/\banalyst\b/g, names.analyst)
      .replace(/\bcompliance\b/g, database);
  const url = (role: 'recall_sync' | 'analyst') =>
    withDatabase(pgAdminUrl() as string, database, { name: names[role], password: passwords[role] });
  return { names, adapt, url };
}

async function dropRoles(database: string, names: string[]): Promise<void> {
  for (const name of names) {
    await adminQuery(`DROP OWNED BY ${name} CASCADE`, [], database).catch(() => {});
    await adminQuery(`DROP ROLE IF EXISTS ${name}`);
  }
}

describe.skipIf(!pgAdminUrl())('the PostgreSQL grants of docs/archive.md', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 25, seed: 27 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  async function setUp() {
    const db = await freshDatabase('rf_grants');
    const r = roles(db.name);
    // Registered after the database: cleanups run newest first, so the roles go while it still exists.
    deferCleanup(() => dropRoles(db.name, [r.names.analyst, r.names.recall_sync]));
    return { db, ...r };
  }

  const read = async (url: string) => {
    const q = await runMainAgainst(sandbox, ['query', '--db', url, '-f', 'jsonl']);
    expect(q.stderr).toBe('');
    expect(q.code).toBe(0);
    return jsonLines(q.stdout).length;
  };

  it('before the first sync: the syncing role creates the archive, the reader reads it (view included)', async () => {
    const { db, adapt, url } = await setUp();
    for (const statement of grants('before the first sync')) await adminQuery(adapt(statement), [], db.name);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', url('recall_sync')]);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    expect(await read(url('analyst'))).toBe(25);
    const stats = await runMainAgainst(sandbox, ['stats', '--db', url('analyst'), '--by', 'source', '-f', 'json']);
    expect(stats.code).toBe(0);
    // And what a BI tool reads, as the reader.
    const pg = await import('pg');
    const reader = new pg.default.Client({ connectionString: url('analyst') });
    await reader.connect();
    try {
      const { rows } = await reader.query('SELECT count(*)::int AS n FROM recall_feed.recalls_view');
      expect(rows).toEqual([{ n: 25 }]);
    } finally {
      await reader.end();
    }
  });

  it('after the first sync: an existing archive becomes readable by a new reader', async () => {
    const { db, adapt, url, names } = await setUp();
    // The syncing role as the "before" block makes it, without any reader yet.
    await adminQuery(`CREATE ROLE ${names.recall_sync} LOGIN PASSWORD '${new URL(url('recall_sync')).password}'`);
    await adminQuery(`GRANT CONNECT, CREATE ON DATABASE ${db.name} TO ${names.recall_sync}`);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', url('recall_sync')]);
    expect(sync.code).toBe(0);
    for (const statement of grants('after the first sync')) await adminQuery(adapt(statement), [], db.name);
    expect(await read(url('analyst'))).toBe(25);
  });
});
