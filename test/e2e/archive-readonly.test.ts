// Reading an archive one may not write (a read-only file, folder or mount); the sandbox's own archive; damaged and odd archives.
import { chmodSync, closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SOURCE_IDS } from '../../src/api/schemas.js';
import { tempFolder } from '../helpers/archive.js';
import { BIN, FIXED_START, cleanEnv, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { deferCleanup } from '../helpers/cleanup.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 600, seed: 81, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

/**
 * Whether `nobody` exists and may run the CLI here (root ignores file modes, so the read-only tests need
 * another user); a checkout in a folder only root may enter (a 0700 temporary folder) rules it out.
 */
const nobody = (() => {
  try {
    return execaSync('runuser', ['-u', 'nobody', '--', 'node', BIN, '--version'], { reject: false }).exitCode === 0;
  } catch {
    return false;
  }
})();
if (!nobody)
  process.stderr.write(
    'archive-readonly: `nobody` cannot run the CLI here, so the read-only folder tests are skipped\n',
  );

/** A folder nobody can enter and read, with a synced archive in it. */
async function syncedFolder(): Promise<{ dir: string; db: string }> {
  const { dir, file } = tempFolder('rf-ro-');
  chmodSync(dir, 0o755);
  const db = file('recalls.db');
  expect((await runAgainst(sandbox, ['sync', '--db', db])).exitCode).toBe(0);
  return { dir, db };
}

/** The CLI as `nobody`, with a home and config folder it may read. */
function asNobody(args: string[]) {
  const home = tempDir('rf-nobody-');
  chmodSync(home, 0o755);
  const child = execa('runuser', ['-u', 'nobody', '--', 'node', BIN, ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ HOME: home, RECALL_FEED_CONFIG_DIR: home }),
    cwd: home,
    stripFinalNewline: false,
  });
  deferCleanup(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await child;
  });
  return child;
}

const READS = (db: string, catalogue: string) => [
  ['query', '--db', db, '-f', 'jsonl', '--severity', 'high'],
  ['stats', '--db', db, '--by', 'severity,day', '-f', 'json'],
  ['query', '--db', db, '-f', 'jsonl', '--search', 'fire', '--limit', '5'],
  ['match', '--archive', '--db', db, '--catalog', catalogue, '-f', 'jsonl'],
];

function catalogueIn(dir: string): string {
  const file = path.join(dir, 'catalogue.csv');
  const fd = openSync(file, 'w', 0o644);
  writeSync(fd, 'sku,ean,brand,model,name\nA,,Acme,X-1,Kettle\n');
  closeSync(fd);
  return file;
}

describe('read-only archives', () => {
  it.skipIf(!nobody)(
    'query, stats, show and match --archive work on a read-only file in a read-only folder',
    async () => {
      const { dir, db } = await syncedFolder();
      const catalogue = catalogueIn(dir);
      const expected = await Promise.all(READS(db, catalogue).map((args) => runCli(args)));
      const id = JSON.parse(expected[0]!.stdout.split('\n')[0]!).id as number;
      chmodSync(db, 0o444);
      chmodSync(dir, 0o555);
      for (const [i, args] of READS(db, catalogue).entries()) {
        const r = await asNobody(args);
        expect([r.exitCode, r.stderr], args.join(' ')).toEqual([0, expected[i]!.stderr]);
        expect(r.stdout).toBe(expected[i]!.stdout);
      }
      const show = await asNobody(['show', String(id), '--history', '-f', 'jsonl', '--db', db]);
      expect([show.exitCode, show.stdout]).toEqual([0, `${expected[0]!.stdout.split('\n')[0]}\n`]);
      // A writer is still told it cannot write.
      const sync = await asNobody(['--base-url', sandbox.url, '--api-key', 'x', 'sync', '--db', db]);
      expect(sync.exitCode).toBe(10);
      expect(readdirSync(dir).sort()).toEqual(['catalogue.csv', 'recalls.db']);
    },
  );

  it.skipIf(!nobody)(
    'a file left in WAL mode on a read-only folder is still read (from a copy in memory)',
    async () => {
      const { dir, db } = await syncedFolder();
      const before = await runCli(['query', '--db', db, '-f', 'jsonl']);
      const handle = new Database(db);
      handle.pragma('journal_mode = WAL');
      handle.close();
      expect(readFileSync(db)[18]).toBe(2);
      chmodSync(dir, 0o555);
      const r = await asNobody(['query', '--db', db, '-f', 'jsonl']);
      expect([r.exitCode, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe(before.stdout);
      expect(readFileSync(db)[18]).toBe(2);
    },
  );

  it('reading writes nothing: the bytes and mtime stay, no -wal or -shm appears', async () => {
    const { dir, db } = await syncedFolder();
    const catalogue = catalogueIn(dir);
    const bytes = readFileSync(db);
    const mtime = statSync(db).mtimeMs;
    for (const args of READS(db, catalogue)) expect((await runCli(args)).exitCode).toBe(0);
    expect(readFileSync(db).equals(bytes)).toBe(true);
    expect(statSync(db).mtimeMs).toBe(mtime);
    expect(readdirSync(dir).sort()).toEqual(['catalogue.csv', 'recalls.db']);
  });
});

describe('the sandbox keeps its own archive', () => {
  it('--sandbox syncs into recalls-sandbox.db, names it, and never mixes with real recalls', async () => {
    const data = tempDir('rf-xdg-');
    const env = { XDG_DATA_HOME: data, RECALL_FEED_FORCE_TTY: '1' };
    const sandboxArchive = path.join(data, 'recall-feed', 'recalls-sandbox.db');
    const real = path.join(data, 'recall-feed', 'recalls.db');
    const first = await runCli(['--sandbox', 'sync', '--hours', '2'], { env });
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toMatch(new RegExp(` in ${sandboxArchive.replace(/[.]/g, '\\.')}\\n$`));
    expect(existsSync(sandboxArchive)).toBe(true);
    expect(existsSync(real)).toBe(false);
    const listed = await runCli(['--sandbox', 'query', '-f', 'jsonl', '--limit', '1'], { env });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).not.toBe('');

    // Real recalls into the sandbox's archive, and sandbox recalls into a real one: both refused, nothing written.
    // "Real": a server playing the API with a live key (a demo key, dr_test_, is the sandbox's own).
    const liveKey = 'dr_live_readonly0test0key0000000000000000000000';
    const api = await sandboxFor({
      recordCount: 50,
      seed: 82,
      clock: () => FIXED_START,
      keys: [{ key: liveKey, name: 'live', sources: [...SOURCE_IDS] }],
    });
    const runLive = (args: string[], opts: { env?: Record<string, string> } = {}) =>
      runCli(['--base-url', api.url, ...args], { env: { ...opts.env, RECALL_FEED_API_KEY: liveKey } });
    const intoSandbox = await runLive(['sync', '--db', sandboxArchive]);
    expect(intoSandbox.exitCode).toBe(2);
    expect(intoSandbox.stderr).toBe(
      `error: ${sandboxArchive} holds the sandbox's invented recalls: real ones are not mixed into it\nhint: sync real recalls into another archive (--db), or remove this sandbox archive\n`,
    );
    expect((await runLive(['sync'], { env })).exitCode).toBe(0);
    const held = () => runCli(['query', '--db', real, '-f', 'jsonl']);
    const before = (await held()).stdout;
    const intoReal = await runCli(['--sandbox', 'sync', '--db', real], { env });
    expect(intoReal.exitCode).toBe(2);
    expect(intoReal.stderr).toMatch(/holds real recalls: the sandbox's invented ones are not mixed into it\nhint: /);
    expect((await held()).stdout).toBe(before);
    const runs = new Database(real, { readonly: true });
    expect(runs.prepare('SELECT count(*) FROM sync_runs').pluck().get()).toBe(1);
    runs.close();
  });
});

describe('damaged and odd archives', () => {
  it('a damaged file names the file, exits 14 and says what to do', async () => {
    const { db } = await syncedFolder();
    const fd = openSync(db, 'r+');
    const size = statSync(db).size;
    // Garbage over the pages after the schema: the records' b-tree is broken.
    writeSync(fd, Buffer.alloc(Math.min(size - 8192, 64 * 1024), 0xa5), 0, undefined, 8192);
    closeSync(fd);
    const r = await runCli(['query', '--db', db, '-f', 'jsonl']);
    expect(r.exitCode).toBe(14);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: the archive ${db.replace(/[.]/g, '\\.')} is damaged \\(.+\\)\\nhint: restore it from a backup, or move it aside`,
      ),
    );
  });

  it('show of an id with a missing --db file and no key says it is not archived', async () => {
    const missing = path.join(tempDir(), 'none.db');
    const r = await runCli(['show', '104835', '--db', missing]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `error: recall 104835 is not archived (no archive at ${missing})\nhint: run \`recall-feed sync\` to store it, or give a key to look in the live window\n`,
    );
    const history = await runCli(['show', '104835', '--history', '--db', missing]);
    expect(history.stderr).toMatch(/^error: recall 104835 is not archived \(no archive at /);
  });

  it('sync --db :memory: is refused before any request', async () => {
    sandbox.clearRequests();
    for (const args of [
      ['sync', '--db', ':memory:'],
      ['query', '--db', ':memory:'],
    ]) {
      const r = await runAgainst(sandbox, args);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        "error: ':memory:' is no archive: it is gone when the command ends\nhint: name a file or a postgres:// URL\n",
      );
    }
    expect(sandbox.requests()).toEqual([]);
  });
});
