// match --archive keeps its state per archive as it really is: never another archive's rows under the same --db text.
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dbTarget } from '../../src/archive/db-target.js';
import { openArchive } from '../../src/archive/open-archive.js';
import { storeRun } from '../helpers/archive.js';
import { testArchive } from '../helpers/archive-engines.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMain } from '../helpers/in-process.js';
import { generatedCatalogue, generatedRecalls } from '../helpers/match-generated.js';
import { adminQuery, ENGINES, type Engine, freshDatabase, pgAdminUrl } from '../helpers/postgres.js';
import { type SourceCli, sourceCli } from '../helpers/source-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;

const ALL = generatedRecalls(600, 7);
/** The second archive: one source only, so a listing carried over from the first shows recalls it does not hold. */
const CPSC = ALL.filter((r) => r.data_source === 'us_cpsc');
const CATALOGUE = generatedCatalogue(ALL, 400, 3, 4);

const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1);
/** The recall_id of each row of match's CSV. */
const recallIds = (csv: string) =>
  (parse(csv, { columns: true }) as Record<string, string>[]).map((row) => row.recall_id as string);

/** Stores `records` in the archive `db` and gives it an id, as a sync does (claimOrigin). */
async function syncedArchive(db: string, records: Rec[]): Promise<void> {
  await storeRun(db, records);
  const archive = await openArchive(db, { create: false });
  try {
    await archive.claimOrigin('api');
  } finally {
    await archive.close();
  }
}

describe("the server a postgres:// URL reaches (in the state's key and every message): as pg works it out", () => {
  const cases: [string, Record<string, string>][] = [
    ['postgres://ana:pw@/', { PGHOST: '/run/pg', PGPORT: '6000', PGDATABASE: 'compliance' }],
    ['postgres://ana:pw@/', { PGHOST: 'db.example', PGDATABASE: 'compliance2' }],
    ['postgres://ana@db.example:7000/recalls', { PGHOST: 'elsewhere', PGPORT: '6000', PGDATABASE: 'other' }],
    ['postgres://ana@/?host=/tmp/sock&port=7001', { PGHOST: 'elsewhere' }],
    ['postgresql://h/db?host=other.example', {}],
    ['postgres:///?user=zed', {}],
    ['postgres://@/', { PGUSER: 'carol' }],
    ['postgres://ana@[::1]:5433/d%20b', {}],
  ];
  it.each(cases)('%s with %o', (url, env) => {
    for (const name of ['PGHOST', 'PGPORT', 'PGDATABASE', 'PGUSER']) vi.stubEnv(name, env[name]);
    const target = dbTarget(url);
    const client = new pg.Client({ connectionString: target.kind === 'postgres' ? target.url : '' });
    expect(target).toMatchObject({ host: client.host, port: client.port, database: client.database });
  });
});

describe('the same --db text naming two archives (a real process: its own working folder and PG* variables)', () => {
  let cli: SourceCli;
  beforeAll(async () => {
    cli = await sourceCli();
  }, 180_000);

  it('SQLite: r.db in two folders; the second incremental run writes what --full writes there', async () => {
    const root = tempDir('rf-identity-');
    const cache = tempDir('rf-identity-cache-');
    for (const d of ['d1', 'd2']) mkdirSync(path.join(root, d));
    writeFileSync(path.join(root, 'products.csv'), CATALOGUE);
    await storeRun(path.join(root, 'd1', 'r.db'), ALL);
    await storeRun(path.join(root, 'd2', 'r.db'), CPSC);
    const env = { HOME: root, RECALL_FEED_CACHE_DIR: cache, RECALL_FEED_CONFIG_DIR: path.join(root, 'cfg') };
    // -v: which kind of run it was, and the last line, are said off a terminal too.
    const match = (folder: string, more: string[] = []) =>
      cli(['match', '--catalog', '../products.csv', '--archive', '-f', 'csv', '--db', 'r.db', '-v', ...more], {
        cwd: path.join(root, folder),
        env,
      });

    const first = await match('d1');
    expect(first.exitCode, first.stderr).toBe(0);
    const second = await match('d2');
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain('checking every recall: no earlier run');
    const full = await match('d2', ['--full']);
    expect(full.exitCode, full.stderr).toBe(0);
    expect(second.stdout).toBe(full.stdout);
    expect(lastLine(second.stderr)).toBe(lastLine(full.stderr));
    // d2 holds only us_cpsc's recalls: its listing is not d1's.
    const held = new Set(CPSC.map((r) => String(r.id)));
    expect(recallIds(second.stdout).length).toBeGreaterThan(10);
    expect(recallIds(second.stdout).every((id) => held.has(id))).toBe(true);
    expect(second.stdout).not.toBe(first.stdout);
    // Each folder's archive keeps its own state: d1 again is incremental, and its own answer.
    const again = await match('d1');
    expect(again.stderr).toContain('checked 0 recalls new or changed since');
    expect(again.stdout).toBe(first.stdout);
  });

  it('SQLite: the same file through a link is the same archive, with the same state', async () => {
    const root = tempDir('rf-identity-');
    mkdirSync(path.join(root, 'real'));
    symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
    writeFileSync(path.join(root, 'products.csv'), CATALOGUE);
    await storeRun(path.join(root, 'real', 'r.db'), ALL);
    const env = { RECALL_FEED_CACHE_DIR: tempDir('rf-identity-cache-') };
    const match = (folder: string) =>
      runMain(
        [
          'match',
          '--catalog',
          path.join(root, 'products.csv'),
          '--archive',
          '-f',
          'csv',
          '--db',
          path.join(root, folder, 'r.db'),
        ],
        // On a terminal, where match says which kind of run it was.
        { env, stderrIsTTY: true },
      );
    const first = await match('link');
    expect(first.stderr).toContain('checking every recall: no earlier run');
    const second = await match('real');
    expect(second.stderr).toContain('checked 0 recalls new or changed since');
    expect(second.stdout).toBe(first.stdout);
  });

  const pg = pgAdminUrl();
  it.skipIf(!pg)('PostgreSQL: postgres://user:password@/ with PGDATABASE choosing the database', async () => {
    const admin = new URL(pg!);
    const [one, two] = [await freshDatabase('rf_ident'), await freshDatabase('rf_ident')];
    await storeRun(one.url, ALL);
    await storeRun(two.url, CPSC);
    const root = tempDir('rf-identity-');
    const cache = tempDir('rf-identity-cache-');
    writeFileSync(path.join(root, 'products.csv'), CATALOGUE);
    const db = `postgres://${admin.username}:${admin.password}@/`;
    // -v: which kind of run it was, and the last line, are said off a terminal too.
    const match = (database: string, more: string[] = []) =>
      cli(['match', '--catalog', 'products.csv', '--archive', '-f', 'csv', '--db', db, '-v', ...more], {
        cwd: root,
        env: {
          HOME: root,
          RECALL_FEED_CACHE_DIR: cache,
          RECALL_FEED_CONFIG_DIR: path.join(root, 'cfg'),
          PGHOST: admin.hostname,
          PGPORT: admin.port,
          PGDATABASE: database,
        },
      });

    const first = await match(one.name);
    expect(first.exitCode, first.stderr).toBe(0);
    const second = await match(two.name);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain('checking every recall: no earlier run');
    const full = await match(two.name, ['--full']);
    expect(full.exitCode, full.stderr).toBe(0);
    expect(second.stdout).toBe(full.stdout);
    expect(lastLine(second.stderr)).toBe(lastLine(full.stderr));
    expect(second.stdout).not.toBe(first.stdout);
    expect(first.stderr + second.stderr).not.toContain(admin.password);
  });
});

/** Puts the archive `replacement` where `archive` is: the file copied over it, or the databases' names swapped. */
async function replaceArchive(engine: Engine, archive: string, replacement: string): Promise<void> {
  if (engine === 'sqlite') {
    copyFileSync(replacement, archive);
    return;
  }
  const name = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
  const [old, other] = [name(archive), name(replacement)];
  await adminQuery(`ALTER DATABASE ${old} RENAME TO ${old}_was`);
  deferCleanup(() => adminQuery(`DROP DATABASE IF EXISTS ${old}_was WITH (FORCE)`));
  await adminQuery(`ALTER DATABASE ${other} RENAME TO ${old}`);
}

describe.each(ENGINES)('another archive put in the place of the one matched, on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  async function setup() {
    const [archive, other] = [await testArchive(engine), await testArchive(engine)];
    const dir = tempDir('rf-identity-');
    const catalog = path.join(dir, 'catalogue.csv');
    writeFileSync(catalog, CATALOGUE);
    const env = { RECALL_FEED_CACHE_DIR: tempDir('rf-identity-cache-') };
    // On a terminal, where match says which kind of run it was, and its last line.
    const match = (more: string[] = []) =>
      runMain(['match', '--catalog', catalog, '--archive', '-f', 'csv', '--db', archive.db, ...more], {
        env,
        stderrIsTTY: true,
      });
    return { archive, other, match };
  }

  /** The incremental run after the swap against --full of the same archive. */
  async function sameAsFull(match: (more?: string[]) => ReturnType<typeof runMain>) {
    const incremental = await match();
    expect(incremental.code, incremental.stderr).toBe(0);
    const full = await match(['--full']);
    expect(full.code, full.stderr).toBe(0);
    expect(incremental.stdout).toBe(full.stdout);
    expect(lastLine(incremental.stderr)).toBe(lastLine(full.stderr));
    return incremental;
  }

  it('holding fewer recalls, neither with an id (archives from before ids): a full run, as it lacks recalls the last run saw', async () => {
    const { archive, other, match } = await setup();
    await storeRun(other.db, CPSC);
    await storeRun(archive.db, ALL);
    const before = await match();
    expect(before.code, before.stderr).toBe(0);
    await replaceArchive(engine, archive.db, other.db);
    const after = await sameAsFull(match);
    // The same place and no id to tell them apart, but recalls the last run's state rests on are gone.
    expect(after.stderr).toContain(
      'checking every recall: the archive no longer holds every version the last run checked',
    );
    expect(after.stdout).not.toBe(before.stdout);
  });

  it('holding more recalls, stored before the last run, each with its id: a full run', async () => {
    const { archive, other, match } = await setup();
    await syncedArchive(other.db, ALL);
    await syncedArchive(archive.db, CPSC);
    const before = await match();
    expect(before.code, before.stderr).toBe(0);
    await replaceArchive(engine, archive.db, other.db);
    const after = await sameAsFull(match);
    expect(after.stderr).toContain('checking every recall: no earlier run');
    expect(after.stdout).not.toBe(before.stdout);
  });
});
