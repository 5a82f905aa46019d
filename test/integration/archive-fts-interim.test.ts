// An archive made by 33d23d5 to 902b417^ (a token-only recalls_fts: detail = none, contentless): refused read-only with
// "run sync once", rebuilt by the next writer (schema 7), then --search finds words of several tokens and plain words.
// A V1 index is left as it is: only the version is raised.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive } from '../../src/archive/index.js';
import { sampleRecords, TEXT_FIELDS, tempFolder } from '../helpers/archive.js';
import { runMain } from '../helpers/in-process.js';

/** The interim build's recalls_fts, exactly as its schema.ts created it (git show 902b417^:src/archive/sqlite/schema.ts). */
const INTERIM_FTS = `CREATE VIRTUAL TABLE recalls_fts USING fts5(title, summary, product, brand, models, hazard, descriptions, tokenize = 'unicode61 remove_diacritics 2', detail = none, content = '', contentless_delete = 1);
INSERT INTO recalls_fts (recalls_fts, rank) VALUES ('automerge', 16);`;

/** The index filled from the stored recalls, as docs/archive.md's rebuild does (the interim build's syncs wrote the same). */
const FILL = `INSERT INTO recalls_fts (rowid, title, summary, product, brand, models, hazard, descriptions)
SELECT id, raw ->> '$.alert_title', raw ->> '$.alert_summary', raw ->> '$.product_name', raw ->> '$.product_brand',
  (SELECT group_concat(value, ' ') FROM json_each(raw, '$.product_model_numbers')), raw ->> '$.hazard_description',
  concat_ws(' ', raw ->> '$.product_description', raw ->> '$.packaging_description')
FROM recalls`;

/** Four recalls whose indexed text is only what is given here (every other text field "plain"). */
function records(): SpecRecall[] {
  const texts: Record<string, string | string[]>[] = [
    { product_name: 'Space heater', models: ['ZR-0532'] },
    { product_name: 'Kettle', models: ['ZR'], product_description: '0532 units' },
    { alert_title: 'Lamp zr-0532 recalled' },
    { product_name: 'Desk fan heater' },
  ];
  return sampleRecords(texts.length, 17).map((r, i) => {
    const { models, ...fields } = texts[i] as Record<string, string | string[]>;
    const record = { ...r } as Record<string, unknown>;
    for (const f of TEXT_FIELDS) record[f] = fields[f] ?? 'plain';
    record.product_model_numbers = models ?? [];
    return record as unknown as SpecRecall;
  });
}

/** An archive of `records()` at schema 6, its recalls_fts made by `fts` and filled from the recalls. */
async function schema6Archive(name: string, fts: string): Promise<string> {
  const file = tempFolder('rf-fts-interim-').file(name);
  const archive = await openArchive(file, { create: true });
  const run = await archive.beginRun({}, Date.now());
  await archive.upsertPage(records(), run, Date.now);
  await archive.finishRun(run, 'ok', Date.now());
  await archive.close();
  const db = new Database(file);
  try {
    db.exec(`DROP TABLE recalls_fts; ${fts}; ${FILL}; PRAGMA user_version = 6;`);
  } finally {
    db.close();
  }
  return file;
}

/** The file's schema version and recalls_fts' CREATE statement, read without recall-feed. */
function schemaOf(file: string): { version: number; fts: string } {
  const db = new Database(file, { readonly: true });
  try {
    const fts = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'recalls_fts'").pluck().get() as string;
    return { version: db.pragma('user_version', { simple: true }) as number, fts };
  } finally {
    db.close();
  }
}

const [heater, kettle, lamp, fan] = records().map((r) => r.id) as [number, number, number, number];
const byId = (a: number, b: number) => a - b;

/** The ids `query --search` prints, sorted. */
async function found(file: string, search: string): Promise<number[]> {
  const r = await runMain(['query', '--db', file, '--search', search, '-f', 'jsonl']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: number }).id)
    .sort(byId);
}

describe('an archive with the interim token-only full-text index', () => {
  it('is refused read-only (exit 2, run sync once), left untouched, and searched once a writer has opened it', async () => {
    const file = await schema6Archive('interim.db', INTERIM_FTS);

    for (const args of [
      ['query', '--db', file, '--search', 'ZR-0532'],
      ['stats', '--db', file, '--search', 'ZR-0532'],
    ]) {
      const r = await runMain(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: ${file} was made by an earlier recall-feed (archive schema 6; its interim full-text index needs 7)\n` +
          'hint: run `recall-feed sync` once: it brings the archive forward\n',
      );
    }
    expect(schemaOf(file)).toEqual({ version: 6, fts: INTERIM_FTS.split(';')[0] });

    // What a sync does first: a writer opens it, and the migration rebuilds the index as V1 creates it.
    await (await openArchive(file, { create: false })).close();
    const after = schemaOf(file);
    expect(after.version).toBe(7);
    expect(after.fts).not.toMatch(/detail|content/);

    // ZR-0532 is the phrase "zr 0532": in a row inside one field (the heater's model, the lamp's title), not the
    // kettle's ZR and 0532 apart; as two words it is both tokens anywhere.
    expect(await found(file, 'ZR-0532')).toEqual([heater, lamp].sort(byId));
    expect(await found(file, 'zr-053*')).toEqual([heater, lamp].sort(byId));
    expect(await found(file, 'zr 0532')).toEqual([heater, kettle, lamp].sort(byId));
    expect(await found(file, 'heater')).toEqual([heater, fan].sort(byId));
    expect(await found(file, 'kettle')).toEqual([kettle]);
  });

  it("leaves V1's full index as it is: only the version is raised", async () => {
    const v1 = `CREATE VIRTUAL TABLE recalls_fts USING fts5(title, summary, product, brand, models, hazard, descriptions, tokenize = 'unicode61 remove_diacritics 2')`;
    const file = await schema6Archive('full.db', v1);
    // A row no recall has: a rebuild from the recalls would drop it.
    const db = new Database(file);
    db.prepare("INSERT INTO recalls_fts (rowid, title) VALUES (987654321, 'marker')").run();
    db.close();

    expect(await found(file, 'ZR-0532')).toEqual([heater, lamp].sort(byId));
    await (await openArchive(file, { create: false })).close();
    expect(schemaOf(file)).toEqual({ version: 7, fts: v1 });
    const read = new Database(file, { readonly: true });
    const marker = read.prepare("SELECT rowid FROM recalls_fts WHERE recalls_fts MATCH 'marker'").pluck().all();
    read.close();
    expect(marker).toEqual([987654321]);
    expect(await found(file, 'ZR-0532')).toEqual([heater, lamp].sort(byId));
  });
});
