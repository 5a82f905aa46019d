// --search's words of several tokens (xk-200/b) are phrases on both engines, and on a SQLite archive made with the
// full positional index as on one made since (tokens only, the phrase checked on the records found).
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive, type ArchiveStore } from '../../src/archive/index.js';
import { ftsValues } from '../../src/archive/record-columns.js';
import { all, sampleRecords, TEXT_FIELDS, tempFolder } from '../helpers/archive.js';
import { ENGINES, freshDatabase } from '../helpers/postgres.js';

/** Five records whose indexed text is only what is given here. */
function phraseRecords(): SpecRecall[] {
  const texts: Partial<Record<(typeof TEXT_FIELDS)[number] | 'models', string | string[]>>[] = [
    { product_name: 'Cordless drill', models: ['XK-200/B'] },
    { product_name: 'XK series kettle', product_description: '200 units of grade B' },
    { alert_title: 'Crème brûlée XK200' },
    { alert_title: 'Lamp XK', alert_summary: '200/B units recalled' },
    { product_name: 'Heater xk 2000 b' },
  ];
  return sampleRecords(texts.length, 11).map((r, i) => {
    const { models, ...fields } = texts[i] as Record<string, string | string[]>;
    const record = { ...r } as Record<string, unknown>;
    for (const f of TEXT_FIELDS) record[f] = fields[f] ?? 'plain';
    record.product_model_numbers = models ?? [];
    return record as unknown as SpecRecall;
  });
}

/** Drops a new archive's index and builds the one archives were made with before: positions and a copy of the text. */
function fullIndex(file: string, records: readonly SpecRecall[]) {
  const db = new Database(file);
  db.exec(`DROP TABLE recalls_fts;
    CREATE VIRTUAL TABLE recalls_fts USING fts5(title, summary, product, brand, models, hazard, descriptions, tokenize = 'unicode61 remove_diacritics 2');`);
  const insert = db.prepare(
    'INSERT INTO recalls_fts (rowid, title, summary, product, brand, models, hazard, descriptions) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const r of records) insert.run(r.id, ...ftsValues(r as unknown as Record<string, unknown>));
  db.close();
}

const KINDS = [
  ...ENGINES.map((e) => ({ ...e, name: e.engine as string })),
  { engine: 'sqlite', available: true, name: 'sqlite, an archive made with the full index' },
];

describe.each(KINDS)('$name', ({ engine, available, name }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const folder = tempFolder();
  let archive: ArchiveStore;
  const records = phraseRecords();
  const [drill, kettle, creme, lamp, heater] = records.map((r) => r.id);
  beforeAll(async () => {
    const where = engine === 'sqlite' ? folder.file('p.db') : (await freshDatabase('rf_phrase')).url;
    archive = await openArchive(where, { create: true });
    await archive.upsertPage(records, await archive.beginRun({}, Date.now()));
    if (name.includes('full index')) {
      await archive.close();
      fullIndex(where, records);
      archive = await openArchive(where, { create: false });
    }
  });
  afterAll(async () => {
    await archive?.close();
  });

  const found = async (search: string, limit?: number) =>
    (await all(archive.records({ search, order: 'asc', ...(limit !== undefined && { limit }) })))
      .map((r) => r.id as number)
      .sort((a, b) => a - b);

  it('finds a word of several tokens only where they stand in a row, inside one field', async () => {
    // The kettle holds xk, 200 and b apart; the lamp's xk ends one field and 200/B begins the next.
    expect(await found('XK-200/B')).toEqual([drill]);
    expect(await found('xk-200')).toEqual([drill]);
    expect(await found('200/b')).toEqual([drill, lamp]);
  });

  it('takes a trailing * on the phrase as a prefix of its last token', async () => {
    expect(await found('xk-20*')).toEqual([drill, heater]);
    expect(await found('xk-200*')).toEqual([drill, heater]);
    expect(await found('xk-2000*')).toEqual([heater]);
  });

  it('requires separate words anywhere, and keeps a phrase with other words and a limit', async () => {
    expect(await found('xk 200 b')).toEqual([drill, kettle, lamp]);
    expect(await found('brulee xk200')).toEqual([creme]);
    expect(await found('drill xk-200/b')).toEqual([drill]);
    expect(await found('kettle xk-200')).toEqual([]);
    expect(await found('200/b', 1)).toEqual([drill]);
  });
});

describe('a SQLite archive made now', () => {
  const folder = tempFolder();

  it('keeps no copy of the text in its index, and takes a replaced record out of it', async () => {
    const file = folder.file('n.db');
    const records = phraseRecords();
    const archive = await openArchive(file, { create: true });
    try {
      await archive.upsertPage(records, await archive.beginRun({}, Date.now()));
      const changed = { ...records[0], product_name: 'Cordless saw', updated_at: '2099-01-01T00:00:00' } as SpecRecall;
      await archive.upsertPage([changed], await archive.beginRun({}, Date.now()));
      expect((await all(archive.records({ search: 'drill' }))).map((r) => r.id)).toEqual([]);
      expect((await all(archive.records({ search: 'saw xk-200' }))).map((r) => r.id)).toEqual([records[0]?.id]);
    } finally {
      await archive.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'recalls_fts%'").pluck().all();
      expect(tables).toContain('recalls_fts_data');
      expect(tables).not.toContain('recalls_fts_content');
    } finally {
      db.close();
    }
    const check = new Database(file);
    expect(() => check.exec("INSERT INTO recalls_fts (recalls_fts) VALUES ('integrity-check')")).not.toThrow();
    check.close();
  });
});
