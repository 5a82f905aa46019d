// Reading an archive writes nothing; the sandbox's own archive; damaged and odd archives: the CLI in process (reading
// one as a user who may not write it, `nobody`, needs a process: test/e2e/archive-readonly.test.ts).
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SOURCE_IDS } from '../../src/api/schemas.js';
import { ARCHIVE_READS, catalogueIn, syncedFolder } from '../helpers/archive-reads.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 600, seed: 81, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

describe('reading an archive', () => {
  it('reading writes nothing: the bytes and mtime stay, no -wal or -shm appears', async () => {
    const { dir, db } = await syncedFolder(sandbox);
    const catalogue = catalogueIn(dir);
    const bytes = readFileSync(db);
    const mtime = statSync(db).mtimeMs;
    for (const args of ARCHIVE_READS(db, catalogue)) expect((await runMain(args)).code).toBe(0);
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
    const first = await runMain(['--sandbox', 'sync', '--hours', '2'], { env });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(new RegExp(` in ${sandboxArchive.replace(/[.]/g, '\\.')}\\n$`));
    expect(existsSync(sandboxArchive)).toBe(true);
    expect(existsSync(real)).toBe(false);
    const listed = await runMain(['--sandbox', 'query', '-f', 'jsonl', '--limit', '1'], { env });
    expect(listed.code).toBe(0);
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
      runMain(['--base-url', api.url, ...args], { env: { ...opts.env, RECALL_FEED_API_KEY: liveKey } });
    const intoSandbox = await runLive(['sync', '--db', sandboxArchive]);
    expect(intoSandbox.code).toBe(2);
    expect(intoSandbox.stderr).toBe(
      `error: ${sandboxArchive} holds the sandbox's invented recalls: real ones are not mixed into it\nhint: sync real recalls into another archive (--db), or remove this sandbox archive\n`,
    );
    expect((await runLive(['sync'], { env })).code).toBe(0);
    const held = () => runMain(['query', '--db', real, '-f', 'jsonl']);
    const before = (await held()).stdout;
    const intoReal = await runMain(['--sandbox', 'sync', '--db', real], { env });
    expect(intoReal.code).toBe(2);
    expect(intoReal.stderr).toMatch(/holds real recalls: the sandbox's invented ones are not mixed into it\nhint: /);
    expect((await held()).stdout).toBe(before);
    const runs = new Database(real, { readonly: true });
    expect(runs.prepare('SELECT count(*) FROM sync_runs').pluck().get()).toBe(1);
    runs.close();
  });
});

describe('damaged and odd archives', () => {
  it('a damaged file names the file, exits 14 and says what to do', async () => {
    const { db } = await syncedFolder(sandbox);
    const fd = openSync(db, 'r+');
    const size = statSync(db).size;
    // Garbage over the pages after the schema: the records' b-tree is broken.
    writeSync(fd, Buffer.alloc(Math.min(size - 8192, 64 * 1024), 0xa5), 0, undefined, 8192);
    closeSync(fd);
    const r = await runMain(['query', '--db', db, '-f', 'jsonl']);
    expect(r.code).toBe(14);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: the archive ${db.replace(/[.]/g, '\\.')} is damaged \\(.+\\)\\nhint: restore it from a backup, or move it aside`,
      ),
    );
  });

  it('show of an id with a missing --db file and no key says it is not archived', async () => {
    const missing = path.join(tempDir(), 'none.db');
    const r = await runMain(['show', '104835', '--db', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: recall 104835 is not archived (no archive at ${missing})\nhint: run \`recall-feed sync\` to store it, or give a key to look in the live window\n`,
    );
    const history = await runMain(['show', '104835', '--history', '--db', missing]);
    expect(history.stderr).toMatch(/^error: recall 104835 is not archived \(no archive at /);
  });

  it('sync --db :memory: is refused before any request', async () => {
    sandbox.clearRequests();
    for (const args of [
      ['sync', '--db', ':memory:'],
      ['query', '--db', ':memory:'],
    ]) {
      const r = await runMainAgainst(sandbox, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "error: ':memory:' is no archive: it is gone when the command ends\nhint: name a file or a postgres:// URL\n",
      );
    }
    expect(sandbox.requests()).toEqual([]);
  });
  it('a folder as --db says so for reading and for sync, before any request (it was "an input/output error")', async () => {
    const folder = tempDir();
    sandbox.clearRequests();
    for (const args of [['query'], ['stats'], ['sync'], ['cases']]) {
      const r = await runMainAgainst(sandbox, [...args, '--db', folder]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(
        `error: ${folder} is not a recall-feed archive: it is a folder\nhint: point --db at a recall-feed archive, or at a new file for sync to create\n`,
      );
    }
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(folder)).toEqual([]);
  });
  it('a catalogue given as --db is no archive, for reading as for sync: not "damaged", never "move it aside"', async () => {
    const file = path.join(tempDir(), 'products.csv');
    const csv = 'sku,name\n1,Gadget\n';
    writeFileSync(file, csv);
    sandbox.clearRequests();
    for (const args of [['query'], ['stats'], ['cases'], ['report'], ['sync']]) {
      const r = await runMainAgainst(sandbox, [...args, '--db', file]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(
        `error: ${file} is not a recall-feed archive: not a SQLite database\nhint: point --db at a recall-feed archive, or at a new file for sync to create\n`,
      );
    }
    expect(sandbox.requests()).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(csv);
  });
});
