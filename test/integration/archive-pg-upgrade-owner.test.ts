// An archive a schema version behind, brought forward by a role other than the schema's owner, against the real server:
// a member of the owner (a case worker given the syncing role's rights, as docs/archive.md says) migrates as the owner,
// so the new table is the owner's and later syncs go on; a role that is no member refuses to migrate (exit 13).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, STATS_TABLE_VERSION } from '../../src/archive/postgres/schema.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { openOneCase } from '../helpers/open-case.js';
import { adminQuery, freshDatabase, pgAdminUrl, withDatabase } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';

type Role = 'sync' | 'worker' | 'stranger';

describe.skipIf(!pgAdminUrl())('bringing a PostgreSQL archive forward as a role other than its owner', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 30, seed: 41 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** A database, and three roles as docs/archive.md's grants make them: the syncing role, a case worker, a stranger. */
  async function setUp() {
    const db = await freshDatabase('rf_owner');
    const tag = randomBytes(4).toString('hex');
    const names: Record<Role, string> = {
      sync: `recall_sync_${tag}`,
      worker: `caseworker_${tag}`,
      stranger: `other_${tag}`,
    };
    deferCleanup(async () => {
      for (const name of Object.values(names)) {
        await adminQuery(`DROP OWNED BY ${name} CASCADE`, [], db.name).catch(() => {});
        await adminQuery(`DROP ROLE IF EXISTS ${name}`);
      }
    });
    for (const role of Object.keys(names) as Role[]) {
      await adminQuery(`CREATE ROLE ${names[role]} LOGIN PASSWORD 'pw-${role}-${tag}'`);
      await adminQuery(`GRANT CONNECT ON DATABASE ${db.name} TO ${names[role]}`);
    }
    await adminQuery(`GRANT CREATE ON DATABASE ${db.name} TO ${names.sync}`);
    await adminQuery(`GRANT ${names.sync} TO ${names.worker}`);
    const url = (role: Role) =>
      withDatabase(pgAdminUrl() as string, db.name, { name: names[role], password: `pw-${role}-${tag}` });
    const sql = (text: string) => adminQuery(text, [], db.name);
    return { db, names, url, sql };
  }

  /** A case opened by the syncing role on a stored recall's EAN: its id. */
  const openCase = (db: string) => openOneCase(sandbox, db);

  /** The archive as the version before recall_stats left it (schema 5), as the syncing role made it. */
  async function oneVersionBehind(sql: (text: string) => Promise<unknown>) {
    await sql('DROP TABLE recall_feed.recall_stats');
    await sql(`UPDATE recall_feed.archive_meta SET value = '${STATS_TABLE_VERSION - 1}' WHERE key = 'schema_version'`);
  }

  const version = async (sql: (text: string) => Promise<unknown>) =>
    ((await sql("SELECT value FROM recall_feed.archive_meta WHERE key = 'schema_version'")) as { value: string }[])[0]
      ?.value;

  it("a member of the owner migrates as the owner: the new table is the owner's, and the owner's syncs go on", async () => {
    const { names, url, sql } = await setUp();
    expect((await runMainAgainst(sandbox, ['sync', '--db', url('sync')])).code).toBe(0);
    const id = await openCase(url('sync'));
    await oneVersionBehind(sql);

    const step = await runMainAgainst(sandbox, [
      'cases',
      'wait',
      id,
      '--note',
      'asked the supplier',
      '--db',
      url('worker'),
    ]);
    expect(step.stderr).toBe('');
    expect(step.code).toBe(0);
    expect(await version(sql)).toBe(String(SCHEMA_VERSION));
    // Everything in the schema still belongs to the syncing role, recall_stats included.
    const owners = (await sql(
      "SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'recall_feed'",
    )) as { owner: string }[];
    expect(owners).toEqual([{ owner: names.sync }]);

    sandbox.addRecords(2);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', url('sync'), '-f', 'json']);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ new: 2 });
    const stats = (await sql('SELECT count(*)::int AS n FROM recall_feed.recall_stats')) as { n: number }[];
    expect(stats).toEqual([{ n: 32 }]);
  });

  it('a role that is no member of the owner refuses to migrate: exit 13, one line naming the owner, nothing changed', async () => {
    const { db, names, url, sql } = await setUp();
    expect((await runMainAgainst(sandbox, ['sync', '--db', url('sync')])).code).toBe(0);
    const id = await openCase(url('sync'));
    await oneVersionBehind(sql);
    // Rights on the schema and its tables, but not the owner's: enough to write a case step, not to own a new table.
    await sql(`GRANT USAGE, CREATE ON SCHEMA recall_feed TO ${names.stranger}`);
    await sql(`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA recall_feed TO ${names.stranger}`);

    const step = await runMainAgainst(sandbox, ['cases', 'wait', id, '--note', 'asked', '--db', url('stranger')]);
    expect(step.code).toBe(13);
    expect(step.stdout).toBe('');
    expect(step.stderr).toBe(
      `error: the archive in schema recall_feed of database ${db.name} on 127.0.0.1 needs an upgrade from version ${STATS_TABLE_VERSION - 1}: run it once as the schema's owner (${names.sync}), e.g. \`recall-feed sync\`\n` +
        "hint: or give this role the owner's rights (GRANT <owner> TO <this role>; docs/archive.md: Roles and grants), and run the command again\n",
    );
    expect(await version(sql)).toBe(String(STATS_TABLE_VERSION - 1));
    expect(await sql("SELECT 1 FROM pg_tables WHERE tablename = 'recall_stats'")).toEqual([]);
    // The owner brings it forward, as the message says.
    expect((await runMainAgainst(sandbox, ['sync', '--db', url('sync')])).code).toBe(0);
    expect(await version(sql)).toBe(String(SCHEMA_VERSION));
  });
});
