// --search's words of several tokens (xk-200/b) are phrases on both engines, and words of any script are found whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive, type ArchiveStore } from '../../src/archive/index.js';
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
    { alert_title: 'йогурт 한국어 ガスコンロ Ανάκληση أطفال ของเล่น' },
  ];
  return sampleRecords(texts.length, 11).map((r, i) => {
    const { models, ...fields } = texts[i] as Record<string, string | string[]>;
    const record = { ...r } as Record<string, unknown>;
    for (const f of TEXT_FIELDS) record[f] = fields[f] ?? 'plain';
    record.product_model_numbers = models ?? [];
    return record as unknown as SpecRecall;
  });
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const folder = tempFolder();
  let archive: ArchiveStore;
  const records = phraseRecords();
  const [drill, kettle, creme, lamp, heater, scripts] = records.map((r) => r.id);
  beforeAll(async () => {
    const where = engine === 'sqlite' ? folder.file('p.db') : (await freshDatabase('rf_phrase')).url;
    archive = await openArchive(where, { create: true });
    await archive.upsertPage(records, await archive.beginRun({}, Date.now()), Date.now);
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

  it('reads a control character (a NUL, a tab, an escape) as a space, never as an error', async () => {
    expect(await found('drill\u0000')).toEqual([drill]);
    expect(await found('cordless\u0000drill')).toEqual([drill]);
    expect(await found('xk-200/b\u001b')).toEqual([drill]);
    expect(await found('\u0000')).toEqual([]);
  });

  it('requires separate words anywhere, and keeps a phrase with other words and a limit', async () => {
    expect(await found('xk 200 b')).toEqual([drill, kettle, lamp]);
    expect(await found('brulee xk200')).toEqual([creme]);
    expect(await found('drill xk-200/b')).toEqual([drill]);
    expect(await found('kettle xk-200')).toEqual([]);
    expect(await found('200/b', 1)).toEqual([drill]);
  });

  it('finds a word of any script whole, as the index holds it (Cyrillic, Hangul, kana, Greek, Arabic, Thai)', async () => {
    for (const word of ['йогурт', '한국어', 'ガスコンロ', 'Ανάκληση', 'أطفال', 'ของเล่น'])
      expect(await found(word), word).toEqual([scripts]);
  });
});
