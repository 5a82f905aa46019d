// The seeded data generator: deterministic, schema-valid, realistic per source, with ties and awkward values.
import { describe, expect, it } from 'vitest';
import { SOURCE_IDS, SpecRecallSchema, type SpecRecall } from '../../src/api/schemas.js';
import { generateArrival, generateDataset, microIso } from '../../src/sandbox/data.js';
import { RecordStore } from '../../src/sandbox/store.js';

const START = Date.parse('2026-04-02T15:20:00.000Z');
const data = generateDataset({ seed: 1, recordCount: 1200, startTime: START });
const text = (r: SpecRecall) => JSON.stringify(r);
const strings = (r: SpecRecall): string[] => {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(r);
  return out;
};
const inWindow = data.filter((r) => Date.parse(`${r.published_at}Z`) >= START - 24 * 3_600_000);

describe('generateDataset', () => {
  it('is deterministic for a seed and start time, and differs for another seed', () => {
    expect(generateDataset({ seed: 1, recordCount: 1200, startTime: START })).toEqual(data);
    expect(generateDataset({ seed: 2, recordCount: 1200, startTime: START })).not.toEqual(data);
  });

  it('makes recordCount records inside 24 h, about 5 % older, unique ids, none in the future', () => {
    expect(inWindow).toHaveLength(1200);
    expect(data).toHaveLength(1260);
    expect(new Set(data.map((r) => r.id)).size).toBe(1260);
    for (const r of data) {
      expect(Date.parse(`${r.published_at}Z`)).toBeLessThanOrEqual(START);
      expect(Date.parse(`${r.updated_at}Z`)).toBeLessThanOrEqual(START);
      expect(Date.parse(`${r.updated_at}Z`)).toBeGreaterThanOrEqual(Date.parse(`${r.published_at}Z`));
    }
    // In-window records stay ten minutes clear of the edge, so a test run never sees one leave.
    for (const r of inWindow)
      expect(Date.parse(`${r.published_at}Z`)).toBeGreaterThanOrEqual(START - 24 * 3_600_000 + 600_000);
  });

  it('every record parses with SpecRecallSchema, keys in spec order, timestamps in the service formats', () => {
    for (const r of data) {
      SpecRecallSchema.parse(r);
      expect(Object.keys(r)[0]).toBe('id');
      expect(r.published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(r.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(r.created_in_db_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
      for (const p of r.involved_parties) expect(Object.keys(p)).toEqual(['name', 'role', 'country']);
    }
  });

  it('covers every source, in its own style (French sources in French, CPSC dates at midnight)', () => {
    for (const s of SOURCE_IDS) expect(data.some((r) => r.data_source === s)).toBe(true);
    const fr = data.filter((r) => r.data_source.startsWith('rappel_conso'));
    // All but the few carrying an awkward-title override.
    expect(fr.filter((r) => r.alert_title.startsWith('Rappel de produit : ')).length).toBeGreaterThanOrEqual(
      fr.length - 2,
    );
    expect(fr.some((r) => r.notifying_authority === 'DGCCRF' && /DLC \d\d\/\d\d\/\d{4}/.test(r.production_dates))).toBe(
      true,
    );
    expect(data.filter((r) => r.data_source === 'us_cpsc').some((r) => r.published_at.endsWith('T00:00:00'))).toBe(
      true,
    );
    expect(data.some((r) => r.source_url.startsWith('https://www.cpsc.gov/Recalls/'))).toBe(true);
    expect(data.some((r) => r.data_source === 'safety_gate' && /^A12\/\d{5}\/\d\d$/.test(r.source_case_id))).toBe(true);
  });

  it('shares sort values between records in each sort field', () => {
    for (const f of ['published_at', 'updated_at', 'created_in_db_at'] as const) {
      const counts = new Map<string, number>();
      for (const r of inWindow) counts.set(r[f], (counts.get(r[f]) ?? 0) + 1);
      expect([...counts.values()].filter((n) => n >= 2).length, f).toBeGreaterThanOrEqual(10);
    }
  });

  it('carries each awkward value at least once inside the window', () => {
    const has = (test: (s: string) => boolean) => inWindow.some((r) => strings(r).some(test));
    expect(has((s) => s.includes(','))).toBe(true);
    expect(has((s) => s.includes('"'))).toBe(true);
    expect(has((s) => s.includes('\n'))).toBe(true);
    expect(has((s) => /[\u4e00-\u9fff]/.test(s))).toBe(true);
    expect(has((s) => /[\u0400-\u04ff]/.test(s))).toBe(true);
    expect(has((s) => /[\u0600-\u06ff]/.test(s))).toBe(true);
    expect(has((s) => /\p{Extended_Pictographic}/u.test(s))).toBe(true);
    for (const c of ['=', '+', '-', '@'])
      expect(
        has((s) => s.startsWith(c)),
        c,
      ).toBe(true);
    expect(has((s) => s.length > 2000)).toBe(true);
    expect(inWindow.some((r) => r.packaging_description === null)).toBe(true);
    expect(inWindow.some((r) => r.counterfeit === null)).toBe(true);
    for (const f of [
      'images',
      'standard_identifiers_and_barcodes',
      'standards_cited',
      'product_model_numbers',
    ] as const) {
      expect(
        inWindow.some((r) => r[f].length === 0),
        f,
      ).toBe(true);
    }
    expect(inWindow.some((r) => text(r).includes('é'))).toBe(true);
  });

  it('arrivals are published, created and updated at their time', () => {
    const at = Date.parse('2026-04-02T15:21:10.500Z');
    const r = generateArrival(1, 0, 999_999, at);
    SpecRecallSchema.parse(r);
    expect(r.published_at).toBe('2026-04-02T15:21:10');
    expect(r.updated_at).toBe('2026-04-02T15:21:10');
    expect(r.created_in_db_at.startsWith('2026-04-02T15:21:10.500')).toBe(true);
    expect(generateArrival(1, 0, 999_999, at)).toEqual(r);
    expect(generateArrival(1, 1, 1, at, ['uk_opss']).data_source).toBe('uk_opss');
  });

  it('microIso prints microseconds and the +00:00 offset', () => {
    expect(microIso(Date.parse('2025-12-19T17:30:00Z') * 1000 + 42)).toBe('2025-12-19T17:30:00.000042+00:00');
  });
});

describe('RecordStore.query', () => {
  const store = new RecordStore(data);
  const base = {
    sources: [...SOURCE_IDS],
    sinceMicros: (START - 24 * 3_600_000) * 1000,
    sortBy: 'published_at' as const,
  };

  it('pages by (key, id) in both directions without gaps or repeats', () => {
    for (const sortOrder of ['asc', 'desc'] as const) {
      const seen: number[] = [];
      let after: { key: number; id: number } | undefined;
      for (;;) {
        const r = store.query({ ...base, sortOrder, limit: 37, ...(after ? { after } : {}) });
        expect(r.total).toBe(1200);
        seen.push(...r.page.map((x) => x.id));
        const last = r.page.at(-1);
        if (!r.hasMore || !last) break;
        after = { key: Date.parse(`${last.published_at}Z`) * 1000, id: last.id };
      }
      expect(seen).toHaveLength(1200);
      expect(new Set(seen).size).toBe(1200);
    }
  });

  it('rejects duplicate ids and bad timestamps, storing nothing', () => {
    const s = new RecordStore(data.slice(0, 3));
    const dup = data[0] as SpecRecall;
    expect(() => s.add([{ ...dup, id: 1 }, dup])).toThrow(/already exists/);
    expect(() => s.add([{ ...dup, id: 2, updated_at: 'soon' }])).toThrow(/updated_at/);
    expect(s.size).toBe(3);
  });
});
