// stats' one count model, on both engines: for each field with a record filter, a group counts the recalls that
// `query --<filter> <its value>` selects (severity and status as `Serious ` and `serious\u200b` differ; a list's
// repeated element once per recall), every expected count written out by hand from the records below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive } from '../../src/archive/index.js';
import { sampleRecords, tempFolder } from '../helpers/archive.js';
import { runMain } from '../helpers/in-process.js';
import { ENGINES, freshDatabase } from '../helpers/postgres.js';
import { jsonLines } from '../helpers/sandbox.js';

const T0 = Date.parse('2026-11-20T06:00:00.000Z');
const ZWSP = '\u200b';

/** The fields each record sets; `undefined` deletes the field, anything else JSON allows is kept as it is. */
const ROWS: Record<string, unknown>[] = [
  {
    risk_severity: 'serious',
    alert_status: 'active',
    risk_types: ['fire', 'fire', 'Fire'],
    geo_jurisdictions: ['EU', 'eu'],
    product_category: 'Toys',
    product_brand: 'Acme',
    country_of_origin: 'China',
  },
  {
    risk_severity: 'SERIOUS',
    alert_status: ' active',
    risk_types: ['fire'],
    geo_jurisdictions: ['EU'],
    product_category: 'toys',
    product_brand: 'ACME',
    country_of_origin: 'Chine',
  },
  {
    risk_severity: 'Serious ',
    alert_status: 'Active',
    risk_types: ['FIRE', 'electric shock'],
    geo_jurisdictions: ['FR'],
    product_category: 'Toys ',
    product_brand: 'Acme',
    country_of_origin: 'China',
  },
  {
    risk_severity: `serious${ZWSP}`,
    alert_status: 'ACTIVE',
    risk_types: ['electric shock '],
    geo_jurisdictions: ['FR', 'EU'],
    product_category: 'Tóys',
    product_brand: 'acme',
    country_of_origin: 'Made in China',
  },
  {
    risk_severity: 'high',
    alert_status: 'completed',
    risk_types: [],
    geo_jurisdictions: [],
    product_category: 'Electronics',
    product_brand: 'Zeta',
    country_of_origin: 'Germany, Poland',
  },
  {
    risk_severity: 'High',
    alert_status: 'Completed',
    risk_types: ['chemical'],
    geo_jurisdictions: ['DE'],
    product_category: 'Electronics',
    product_brand: 'Zeta',
    country_of_origin: 'germany',
  },
  {
    risk_severity: undefined,
    alert_status: null,
    risk_types: undefined,
    geo_jurisdictions: null,
    product_category: undefined,
    product_brand: null,
    country_of_origin: undefined,
  },
  {
    risk_severity: 3,
    alert_status: ['active', 'recalled'],
    risk_types: 'chemical',
    geo_jurisdictions: ['DE', 7],
    product_category: 'Électronique',
    product_brand: 'Zéta',
    country_of_origin: 'Atlantis',
  },
];

/**
 * Counted by hand from ROWS: a group per value the filter compares (no case, accents or outer spaces; U+200B is kept,
 * as the filters keep it), null for the recalls no value selects; labelled by the value folded (severity, status) or
 * by its most common spelling; sorted by count, then null first, then the label's UTF-8 bytes.
 */
const WANT = {
  severity: [
    { value: 'serious', count: 3 },
    { value: null, count: 2 },
    { value: 'high', count: 2 },
    { value: `serious${ZWSP}`, count: 1 },
  ],
  status: [
    { value: 'active', count: 5 },
    { value: 'completed', count: 2 },
    { value: null, count: 1 },
    { value: 'recalled', count: 1 },
  ],
  risk: [
    { value: 'fire', count: 3 },
    { value: null, count: 2 },
    { value: 'chemical', count: 2 },
    { value: 'electric shock', count: 2 },
  ],
  jurisdiction: [
    { value: 'EU', count: 3 },
    { value: null, count: 2 },
    { value: 'DE', count: 2 },
    { value: 'FR', count: 2 },
  ],
  category: [
    { value: 'Toys', count: 4 },
    { value: 'Electronics', count: 2 },
    { value: null, count: 1 },
    { value: 'Électronique', count: 1 },
  ],
  brand: [
    { value: 'Acme', count: 4 },
    { value: 'Zeta', count: 3 },
    { value: null, count: 1 },
  ],
  country: [
    { value: 'China', count: 4 },
    { value: 'Germany', count: 2 },
    { value: null, count: 1 },
    { value: 'Atlantis', count: 1 },
    { value: 'Poland', count: 1 },
  ],
};
type Field = keyof typeof WANT;
const FIELDS = Object.keys(WANT) as Field[];

/** Which of ROWS (by index) `query --<field> <value>` selects, by hand: the same sets the counts above come from. */
const SELECTED: Record<Field, Record<string, number[]>> = {
  severity: { serious: [0, 1, 2], high: [4, 5], [`serious${ZWSP}`]: [3] },
  status: { active: [0, 1, 2, 3, 7], completed: [4, 5], recalled: [7] },
  risk: { fire: [0, 1, 2], chemical: [5, 7], 'electric shock': [2, 3] },
  jurisdiction: { EU: [0, 1, 3], DE: [5, 7], FR: [2, 3] },
  category: { Toys: [0, 1, 2, 3], Electronics: [4, 5], Électronique: [7] },
  brand: { Acme: [0, 1, 2, 3], Zeta: [4, 5, 7] },
  country: { China: [0, 1, 2, 3], Germany: [4, 5], Atlantis: [7], Poland: [4] },
};

function records(): SpecRecall[] {
  return sampleRecords(ROWS.length, 5).map((r, i) => {
    const record = { ...r } as Record<string, unknown>;
    for (const [field, value] of Object.entries(ROWS[i] as Record<string, unknown>)) {
      if (value === undefined) delete record[field];
      else record[field] = value;
    }
    return record as unknown as SpecRecall;
  });
}

/** Per engine, stats -f json of every field, to compare across engines. */
const printed = new Map<string, string>();
afterAll(() => printed.clear());

describe.each(ENGINES)('$engine: stats counts what the filters select', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  const list = records();
  let db: string;

  // In beforeAll, so that the folder or database lasts the file (one made in a test goes when the test ends).
  beforeAll(async () => {
    db = engine === 'sqlite' ? tempFolder('rf-countmodel-').file('a.db') : (await freshDatabase('rf_cm')).url;
    const store = await openArchive(db, { create: true });
    const run = await store.beginRun({ sources: null, hours: 24 }, T0);
    await store.upsertPage(list, run, () => T0);
    await store.finishRun(run, 'ok', T0 + 60_000);
    await store.close();
  });

  async function cli(args: string[]) {
    const r = await runMain([...args, '--db', db]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  }

  it('counts each field as written out by hand: folded as the filters fold, a list once per recall', async () => {
    const out = await cli(['stats', '--by', FIELDS.join(','), '-f', 'json']);
    expect(JSON.parse(out)).toEqual(WANT);
    printed.set(engine, out);
  });

  it.each(FIELDS)('%s: each group counts the recalls query selects by its value', async (field) => {
    const counts = JSON.parse(await cli(['stats', '--by', field, '-f', 'json']))[field] as {
      value: string | null;
      count: number;
    }[];
    const groups = counts.filter((c) => c.value !== null);
    expect(Object.keys(SELECTED[field]).sort()).toEqual(groups.map((c) => c.value).sort());
    for (const { value, count } of groups) {
      const ids = jsonLines(await cli(['query', `--${field}`, value as string, '-f', 'jsonl'])).map((r) => r.id);
      const want = (SELECTED[field][value as string] as number[]).map((i) => list[i]?.id);
      expect(ids.sort(), `${field} ${JSON.stringify(value)}`).toEqual(want.sort());
      expect(count, `${field} ${JSON.stringify(value)}`).toBe(want.length);
    }
  });

  it('a filtered count keeps one group: stats --severity serious and --risk fire', async () => {
    const severity = JSON.parse(await cli(['stats', '--severity', 'serious', '--by', 'severity', '-f', 'json']));
    expect(severity).toEqual({ severity: [{ value: 'serious', count: 3 }] });
    const risk = JSON.parse(await cli(['stats', '--risk', 'fire', '--by', 'risk', '-f', 'json']));
    expect(risk).toEqual({
      risk: [
        { value: 'fire', count: 3 },
        { value: 'electric shock', count: 1 },
      ],
    });
  });

  it('never prints two groups under one label on a terminal: an invisible character is shown escaped', async () => {
    const r = await runMain(['stats', '--by', 'severity', '-f', 'table', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^8 recalls in \S+\n$/);
    const labels = r.stdout
      .split('\n')
      .slice(1)
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim().split(/\s+/)[0]);
    expect(labels).toEqual(['serious', '(none)', 'high', '"serious\\u200b"']);
  });
});

/** Blank texts (empty, or spaces only): no filter value selects them (`query --brand "  "` is refused). */
const BLANK_ROWS: Record<string, unknown>[] = [
  {
    risk_severity: '  ',
    alert_status: '',
    risk_types: ['', ' '],
    geo_jurisdictions: [' ', 'EU'],
    product_category: '',
    product_brand: '  ',
    country_of_origin: ' ',
  },
  {
    risk_severity: 'high',
    alert_status: 'active',
    risk_types: ['fire', '\t'],
    geo_jurisdictions: ['EU'],
    product_category: 'Toys',
    product_brand: 'Acme',
    country_of_origin: 'China',
  },
];

/** By hand: the blank record counts under null for every field but jurisdiction, where its EU counts; null sorts first. */
const BLANK_WANT = {
  severity: [
    { value: null, count: 1 },
    { value: 'high', count: 1 },
  ],
  status: [
    { value: null, count: 1 },
    { value: 'active', count: 1 },
  ],
  risk: [
    { value: null, count: 1 },
    { value: 'fire', count: 1 },
  ],
  jurisdiction: [{ value: 'EU', count: 2 }],
  category: [
    { value: null, count: 1 },
    { value: 'Toys', count: 1 },
  ],
  brand: [
    { value: null, count: 1 },
    { value: 'Acme', count: 1 },
  ],
  country: [
    { value: null, count: 1 },
    { value: 'China', count: 1 },
  ],
};

describe.each(ENGINES)('$engine: a blank text counts under the group without a value', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let db: string;
  beforeAll(async () => {
    db = engine === 'sqlite' ? tempFolder('rf-countblank-').file('a.db') : (await freshDatabase('rf_cmb')).url;
    const list = sampleRecords(BLANK_ROWS.length, 6).map((r, i) => ({ ...r, ...BLANK_ROWS[i] }) as SpecRecall);
    const store = await openArchive(db, { create: true });
    const run = await store.beginRun({ sources: null, hours: 24 }, T0);
    await store.upsertPage(list, run, () => T0);
    await store.finishRun(run, 'ok', T0 + 60_000);
    await store.close();
  });

  it('null (none) in json, never a group "", and (none) on a terminal', async () => {
    const json = await runMain(['stats', '--by', FIELDS.join(','), '-f', 'json', '--db', db]);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(BLANK_WANT);
    const table = await runMain(['stats', '--by', 'brand', '-f', 'table', '--db', db]);
    expect(table.code).toBe(0);
    const labels = table.stdout
      .split('\n')
      .slice(1)
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim().split(/\s+/)[0]);
    expect(labels).toEqual(['(none)', 'Acme']);
  });
});

describe('both engines', () => {
  it.skipIf(!ENGINES.every((e) => e.available))('print the same counts, byte for byte', () => {
    expect(printed.get('postgres')).toBe(printed.get('sqlite'));
  });
});
