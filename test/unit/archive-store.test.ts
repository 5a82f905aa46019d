import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  ArchiveMissingError,
  ArchiveTooNewError,
  NotAnArchiveError,
  cannotWriteReason,
} from '../../src/archive/index.js';
import { openDatabase } from '../../src/archive/sqlite/open.js';
import { SCHEMA_VERSION } from '../../src/archive/sqlite/schema.js';
import { SqliteStore } from '../../src/archive/sqlite/store.js';
import { all, sampleRecords, tempFolder } from '../helpers/archive.js';

const Archive = SqliteStore;

const folder = () => tempFolder();

const T0 = Date.parse('2026-01-15T12:00:00Z');

describe('opening an archive', () => {
  it('creates the file and, asked to, its folder, in WAL mode while open and rollback mode once closed, with the schema version and the application id', async () => {
    const f = folder();
    const file = f.file('a/b/recalls.db');
    // Without createFolder (a folder --db names), a missing folder is refused and nothing is made.
    await expect(Archive.open(file, { create: true })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(f.file('a'))).toBe(false);
    const open = await Archive.open(file, { create: true, createFolder: true });
    const peek = new Database(file, { readonly: true });
    expect(peek.pragma('journal_mode', { simple: true })).toBe('wal');
    peek.close();
    await open.close();
    // Closed: back in rollback mode, so that a reader without write access to the folder can open it.
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma('application_id', { simple: true })).toBe(0x52434641);
    } finally {
      db.close();
    }
    // Opening again changes nothing.
    await (await Archive.open(file, { create: false })).close();
  });

  it("sets a writer's cache size on a new file and an existing one (better-sqlite3's default is -16000)", async () => {
    // Left unset on a new file, SQLite keeps the number of pages its default cache held at 4 KiB, read before the
    // page size became 16 KiB: some 60 MB, while this pragma still says -16000 (src/archive/sqlite/open.ts).
    const file = folder().file('cache.db');
    for (const create of [true, false]) {
      const db = await openDatabase(file, { create });
      try {
        expect(db.pragma('cache_size', { simple: true })).toBe(-8192);
        expect(db.pragma('page_size', { simple: true })).toBe(16_384);
      } finally {
        db.close();
      }
    }
  });

  it('makes a new file with 16 KiB pages; a file made with 4 KiB pages keeps them, and takes new pages', async () => {
    const f = folder();
    const fresh = f.file('new.db');
    await (await Archive.open(fresh, { create: true })).close();
    const pageSize = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.pragma('page_size', { simple: true });
      } finally {
        db.close();
      }
    };
    expect(pageSize(fresh)).toBe(16_384);
    // An archive as versions before this one made it: rebuilt with SQLite's default page.
    const old = f.file('old.db');
    await (await Archive.open(old, { create: true })).close();
    const db = new Database(old);
    db.pragma('page_size = 4096');
    db.exec('VACUUM');
    db.close();
    expect(pageSize(old)).toBe(4096);
    const archive = await Archive.open(old, { create: false });
    const run = await archive.beginRun({ sources: null, hours: 24 }, T0);
    const records = sampleRecords(50);
    await archive.upsertPage(records, run, Date.now);
    await archive.finishRun(run, 'ok', T0 + 1000);
    const ids = (await all(archive.records({}))).map((r) => (r as { id: number }).id);
    expect(ids.sort((a, b) => a - b)).toEqual(records.map((r) => r.id as number).sort((a, b) => a - b));
    await archive.close();
    expect(pageSize(old)).toBe(4096);
  });

  it('refuses a missing file unless asked to create it', async () => {
    const f = folder();
    await expect(Archive.open(f.file('none.db'), { create: false })).rejects.toThrow(ArchiveMissingError);
  });

  it('refuses a file made by a newer version and leaves it byte for byte as it was', async () => {
    const f = folder();
    const file = f.file('newer.db');
    await (await Archive.open(file, { create: true })).close();
    const db = new Database(file);
    // A rollback journal: opening it as WAL would rewrite the header, which must not happen either.
    db.pragma('journal_mode = DELETE');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(file);
    await expect(Archive.open(file, { create: true })).rejects.toThrow(ArchiveTooNewError);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses files that are not archives: text, and databases of other programs', async () => {
    const f = folder();
    writeFileSync(f.file('notes.db'), 'just some text, not a database at all\n'.repeat(200));
    await expect(Archive.open(f.file('notes.db'), { create: true })).rejects.toThrow(NotAnArchiveError);
    const other = new Database(f.file('other.db'));
    other.exec('CREATE TABLE t (x)');
    other.close();
    await expect(Archive.open(f.file('other.db'), { create: true })).rejects.toThrow(/another program/);
  });

  it('names the reason when a write fails for lack of room or rights', async () => {
    expect(cannotWriteReason({ code: 'SQLITE_FULL' })).toBe('the disk is full');
    expect(cannotWriteReason({ code: 'SQLITE_READONLY_DBMOVED' })).toBe('the file or its folder is read-only');
    expect(cannotWriteReason({ code: 'ENOTDIR' })).toBe('a part of the path is not a folder');
    expect(cannotWriteReason({ code: 'SQLITE_CONSTRAINT' })).toBeUndefined();
    expect(cannotWriteReason(new Error('x'))).toBeUndefined();
  });
});

describe('storing pages', () => {
  it('counts new, updated and unchanged records, keeps old versions, and ignores a late older version', async () => {
    const f = folder();
    const file = f.file('r.db');
    const archive = await Archive.open(file, { create: true });
    try {
      const records = sampleRecords(50);
      const run1 = await archive.beginRun({ hours: 24 }, T0);
      expect(await archive.upsertPage(records.slice(0, 30), run1, Date.now)).toEqual({
        added: 30,
        updated: 0,
        unchanged: 0,
      });
      expect(await archive.upsertPage(records.slice(20), run1, Date.now)).toEqual({
        added: records.length - 30,
        updated: 0,
        unchanged: 10,
      });
      expect(await archive.finishRun(run1, 'ok', T0 + 1000)).toEqual({
        fetched: records.length + 10,
        added: records.length,
        updated: 0,
        unchanged: 10,
      });

      const target = records[5]!;
      const changed = { ...target, alert_status: 'updated', updated_at: '2026-01-15T13:00:00' };
      const run2 = await archive.beginRun({ hours: 24 }, T0 + 60_000);
      expect(await archive.upsertPage([changed, records[6]!], run2, Date.now)).toEqual({
        added: 0,
        updated: 1,
        unchanged: 1,
      });
      // The version fetched before the change, stored by a slower concurrent sync: not a new version.
      expect(await archive.upsertPage([target], run2, Date.now)).toEqual({ added: 0, updated: 0, unchanged: 1 });
      // Same updated_at, different content: still a change.
      const edited = { ...changed, product_name: 'Renamed' };
      expect(await archive.upsertPage([edited], run2, Date.now)).toEqual({ added: 0, updated: 1, unchanged: 0 });
      await archive.finishRun(run2, 'ok', T0 + 61_000);

      const versions = await archive.versions(target.id);
      expect(versions.map((v) => [v.version, v.current])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      expect(versions.map((v) => v.raw)).toEqual([
        JSON.stringify(target),
        JSON.stringify(changed),
        JSON.stringify(edited),
      ]);
      expect(versions.map((v) => v.storedAt)).toEqual([
        new Date(T0).toISOString(),
        new Date(T0 + 60_000).toISOString(),
        new Date(T0 + 60_000).toISOString(),
      ]);
      expect(await archive.versions(1)).toEqual([]);
      expect((await archive.extent()).total).toBe(records.length);
      const check = new Database(file, { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      check.close();
    } finally {
      await archive.close();
    }
  });

  it('keeps the full-text index in step with updates', async () => {
    const f = folder();
    const archive = await Archive.open(f.file('r.db'), { create: true });
    try {
      const [record] = sampleRecords(1);
      const run = await archive.beginRun({}, T0);
      await archive.upsertPage([{ ...record!, alert_title: 'Zanzibar kettle' }], run, Date.now);
      expect(await all(archive.records({ search: 'zanzibar' }))).toHaveLength(1);
      await archive.upsertPage([{ ...record!, alert_title: 'Quokka kettle' }], run, Date.now);
      expect(await all(archive.records({ search: 'zanzibar' }))).toHaveLength(0);
      expect(await all(archive.records({ search: 'QUOKKA' }))).toHaveLength(1);
    } finally {
      await archive.close();
    }
  });

  it('indexes a newest-first page, a record twice in a page and a later version each under its own words only', async () => {
    const f = folder();
    const file = f.file('r.db');
    const archive = await Archive.open(file, { create: true });
    try {
      // The feed's order: ids falling (the writer indexes them in id order).
      const records = sampleRecords(40)
        .sort((a, b) => b.id - a.id)
        .map((r) => ({ ...r, alert_title: `Lamp tag${r.id}x` }));
      const twice = records[7]!;
      const again = { ...twice, alert_title: `Lamp again${twice.id}x` };
      const run = await archive.beginRun({}, T0);
      await archive.upsertPage([...records.slice(0, 20), again, ...records.slice(20)].slice(0, 25), run, Date.now);
      await archive.upsertPage([...records.slice(24)], run, Date.now);
      const later = {
        ...records[30]!,
        alert_title: `Lamp later${records[30]!.id}x`,
        updated_at: '2027-01-01T00:00:00',
      };
      await archive.upsertPage([records[29]!, later], run, Date.now);
      const found = async (word: string) => (await all(archive.records({ search: word }))).map((r) => r.id);
      for (const r of records) {
        const current = r.id === twice.id || r.id === later.id ? [] : [r.id];
        expect(await found(`tag${r.id}x`)).toEqual(current);
      }
      expect(await found(`again${twice.id}x`)).toEqual([twice.id]);
      expect(await found(`later${later.id}x`)).toEqual([later.id]);
      expect(await found('lamp')).toHaveLength(records.length);
      const check = new Database(file);
      // FTS5's own check: every row's terms in the index, no term of a replaced row left behind.
      expect(() => check.exec("INSERT INTO recalls_fts (recalls_fts) VALUES ('integrity-check')")).not.toThrow();
      check.close();
    } finally {
      await archive.close();
    }
  });

  it('records each run with its parameters and outcome', async () => {
    const f = folder();
    const file = f.file('r.db');
    const archive = await Archive.open(file, { create: true });
    const run = await archive.beginRun({ sources: ['us_cpsc'], hours: 6 }, T0);
    await archive.upsertPage(sampleRecords(3), run, Date.now);
    await archive.finishRun(run, 'interrupted', T0 + 5000, 'interrupted by SIGINT', ['us_cpsc']);
    await archive.close();
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT * FROM sync_runs').all()).toEqual([
        {
          id: 1,
          started_at: '2026-01-15T12:00:00.000Z',
          ended_at: '2026-01-15T12:00:05.000Z',
          params: '{"sources":["us_cpsc"],"hours":6}',
          fetched: 3,
          added: 3,
          updated: 0,
          unchanged: 0,
          outcome: 'interrupted',
          error: 'interrupted by SIGINT',
          served: '["us_cpsc"]',
        },
      ]);
    } finally {
      db.close();
    }
  });
});
