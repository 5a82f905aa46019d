// `match --learn`: tiers promoted only when their measured precision is sure to reach 0.98; name words reweighed.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { fitLearned, type JudgedPair, parseLearned, wilsonLower } from '../../src/match/learned.js';
import { CatalogueIndex } from '../../src/match/matcher.js';

const META = { at: '2026-11-28T00:00:00.000Z', sha256: 'x' };
const pairs = (reason: string, right: number, wrong: number, words: string[] = []): JudgedPair[] => [
  ...Array.from({ length: right }, () => ({ reason, right: true, words })),
  ...Array.from({ length: wrong }, () => ({ reason, right: false, words })),
];

describe('the Wilson lower bound', () => {
  it('is n / (n + z²) when every case was right (worked out by hand, z = 1.96)', () => {
    expect(wilsonLower(200, 200)).toBeCloseTo(200 / (200 + 3.8416), 10);
    expect(wilsonLower(60, 60)).toBeCloseTo(60 / 63.8416, 10);
    expect(wilsonLower(0, 0)).toBe(0);
  });
});

describe('fitLearned', () => {
  it('promotes brand+name only past 0.98 sure: 200 of 200 right (0.981) yes, 188 of 188 (0.980-) no', () => {
    expect(fitLearned(pairs('brand+name', 200, 0), META).tiers['brand+name']).toEqual({
      confirmed: 200,
      wrong: 0,
      lower: 0.981,
      level: 'match',
    });
    expect(fitLearned(pairs('brand+name', 188, 0), META).tiers['brand+name']?.level).toBe('possible');
  });

  it('never promotes on too few cases, and never changes a match tier', () => {
    expect(fitLearned(pairs('model', 9, 0), META).tiers.model).toEqual({
      confirmed: 9,
      wrong: 0,
      lower: null,
      level: 'possible',
    });
    expect(fitLearned(pairs('barcode', 1, 40), META).tiers.barcode?.level).toBe('match');
  });

  it('reweighs a word seen in 2 or more judged pairs: 3 wrong of 3 gives 0.4, held to 0.5; 3 right of 3 gives 1.6', () => {
    const learned = fitLearned(
      [
        ...pairs('brand+name', 0, 3, ['kielbasa']),
        ...pairs('brand+name', 3, 0, ['gumbo']),
        ...pairs('brand+name', 1, 0, ['once']),
      ],
      META,
    );
    // (0 + 1) / (3 + 2) x 2 = 0.4, within [0.5, 2]: 0.5; (3 + 1) / (3 + 2) x 2 = 1.6.
    expect(learned.words).toEqual({ gumbo: 1.6, kielbasa: 0.5 });
  });

  it('read back, an edited file cannot promote a tier its measured precision does not carry', () => {
    const edited = JSON.stringify({
      version: 1,
      tiers: { 'brand+name': { confirmed: 3, wrong: 0, lower: 0.4, level: 'match' } },
      words: { gumbo: 99 },
    });
    const read = parseLearned(edited);
    expect(read?.tiers['brand+name']?.level).toBe('possible');
    expect(read?.words.gumbo).toBe(2);
    expect(parseLearned('not json')).toBeUndefined();
    expect(parseLearned('{"version": 2, "tiers": {}}')).toBeUndefined();
  });

  it('read back, the bound comes from the counts, never from the file: 0 of 500 right is no promotion', () => {
    const edited = (t: Record<string, unknown>) => parseLearned(JSON.stringify({ version: 1, tiers: { model: t } }));
    const wrong = edited({ confirmed: 0, wrong: 500, lower: 0.99, level: 'match' });
    expect(wrong?.tiers.model).toEqual({ confirmed: 0, wrong: 500, lower: 0, level: 'possible' });
    // 500 of 500: the Wilson bound 500 / (500 + 1.96²) = 0.9924, as fitLearned gives it.
    const right = edited({ confirmed: 500, wrong: 0, lower: 0.1, level: 'match' });
    expect(right?.tiers.model).toEqual({ confirmed: 500, wrong: 0, lower: 0.992, level: 'match' });
    // Counts that are no counts are no file --learn wrote (never read as 0: test/unit/learned-file-counts.test.ts).
    expect(edited({ confirmed: '500', wrong: -1, lower: 1, level: 'match' })).toBeUndefined();
  });
});

describe('the matcher with what was learned', () => {
  const catalogue: Catalogue = {
    file: 'c.csv',
    headers: ['sku', 'brand', 'name'],
    columns: { brand: 'brand', name: 'name' },
    rows: [{ line: 1, values: { sku: 'G1', brand: 'HEB', name: 'Chicken Gumbo family' } }],
    repeated: [],
  };
  const recall = { product_brand: 'HEB', product_name: 'Chicken Gumbo soup' };

  it('a promoted tier gives match, and says why in --explain; without it the pair stays possible', () => {
    expect(new CatalogueIndex(catalogue).match(recall).map((m) => [m.level, m.reason])).toEqual([
      ['possible', 'brand+name'],
    ]);
    const learned = fitLearned(pairs('brand+name', 200, 0), META);
    const [m] = new CatalogueIndex(catalogue, { learned }).match(recall, { explain: true });
    expect([m?.level, m?.reason]).toEqual(['match', 'brand+name']);
    expect(m?.explain).toContain('a match by match --learn: 200 of 200 closed cases right (at least 0.981 sure)');
  });

  it('a promoted model tier: a row without a brand is promoted, one of another brand or a brand hint is not', () => {
    const models: Catalogue = {
      file: 'm.csv',
      headers: ['sku', 'brand', 'model', 'name'],
      columns: { brand: 'brand', model: 'model', name: 'name' },
      rows: [
        { line: 1, values: { sku: 'NONE', brand: '', model: 'BH-77321', name: 'Drill' } },
        { line: 2, values: { sku: 'OTHER', brand: 'Zeta Corp', model: 'BH-77321', name: 'Drill' } },
        { line: 3, values: { sku: 'WORD', brand: 'Harbor Tools', model: 'BH-77321', name: 'Drill' } },
      ],
      repeated: [],
    };
    const blender = {
      product_brand: 'Blue Harbor Foods',
      product_name: 'Power Blender',
      product_model_numbers: ['BH-77321'],
    };
    const learned = fitLearned(pairs('model', 200, 0), META);
    const found = new CatalogueIndex(models, { learned }).match(blender);
    expect(found.map((m) => [m.row.values.sku, m.level, m.reason]).sort()).toEqual([
      ['NONE', 'match', 'model'],
      ['OTHER', 'possible', 'model'],
      ['WORD', 'possible', 'model'],
    ]);
  });

  it('a word that misled weighs less: the pair falls below the cover it reached', () => {
    // Unweighed, "chicken" and "gumbo" of {chicken, gumbo, family} cover 2/3 of equal weights; a Dice of 0.67 still
    // ties them, so the test reads the cover the explanation gives.
    const before = new CatalogueIndex(catalogue).match(recall, { explain: true })[0]?.explain ?? '';
    const learned = fitLearned(pairs('brand+name', 0, 3, ['gumbo']), META);
    const after = new CatalogueIndex(catalogue, { learned }).match(recall, { explain: true })[0]?.explain ?? '';
    const cover = (text: string) => Number(/weighed cover ([\d.]+)/.exec(text)?.[1]);
    expect(cover(after)).toBeLessThan(cover(before));
  });
});
