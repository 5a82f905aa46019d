// What match --learn never promotes, however often its tier was right: a model row of a brand the notice does not
// write, a revision of the row's model, a brand's sibling product. A review's pairs: each stayed `possible` without
// the learned file and became `match` with it.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { fitLearned, type JudgedPair } from '../../src/match/learned.js';
import { CatalogueIndex } from '../../src/match/matcher.js';

const META = { at: '2026-11-29T00:00:00.000Z', sha256: 'x' };
/** 200 closed cases of the tier, every one right: sure past 0.98, so the tier is promoted. */
const promoted = (reason: string) => {
  const right: JudgedPair[] = Array.from({ length: 200 }, () => ({ reason, right: true, words: [] }));
  return fitLearned(right, META);
};

function levels(rows: Catalogue['rows'], notice: Record<string, unknown>, reason: string) {
  const catalogue: Catalogue = {
    file: 'c.csv',
    headers: ['sku', 'brand', 'model', 'name'],
    columns: { brand: 'brand', model: 'model', name: 'name' },
    rows,
    repeated: [],
  };
  const run = (learned?: ReturnType<typeof fitLearned>) =>
    new CatalogueIndex(catalogue, learned ? { learned } : {})
      .match({ geo_jurisdictions: ['US'], ...notice })
      .map((m) => [m.row.values.sku, m.level, m.reason])
      .sort();
  return { without: run(), with: run(promoted(reason)) };
}

describe('match --learn never promotes a pair its tier cannot vouch for', () => {
  it('a model row of a brand the notice writes nowhere (no brand field, another firm) stays possible', () => {
    const got = levels(
      [
        { line: 1, values: { sku: 'ACME', brand: 'Acme', model: 'QX10000', name: 'Fan' } },
        { line: 2, values: { sku: 'NONE', brand: '', model: 'QX10000', name: 'Fan' } },
      ],
      { alert_title: 'Otherco Recalls Fans', product_name: 'Fans', product_model_numbers: ['QX10000'] },
      'model',
    );
    expect(got.without).toEqual([
      ['ACME', 'possible', 'model'],
      ['NONE', 'possible', 'model'],
    ]);
    // The row without a brand is left to the tier's measure; Acme's is not.
    expect(got.with).toEqual([
      ['ACME', 'possible', 'model'],
      ['NONE', 'match', 'model'],
    ]);
  });

  it('a revision of the row model (NTRW19147.0 for NTRW19147) stays possible, brand or none', () => {
    const got = levels(
      [{ line: 1, values: { sku: 'REV', brand: '', model: 'NTRW19147', name: 'Space heater' } }],
      { product_brand: 'Zeta', product_name: 'Space Heaters', product_model_numbers: ['NTRW19147.0'] },
      'model',
    );
    expect(got.without).toEqual([['REV', 'possible', 'model']]);
    expect(got.with).toEqual([['REV', 'possible', 'model']]);
  });

  it("a brand's sibling (white for milk chocolate) stays possible under a promoted brand+name tier", () => {
    const notice = {
      product_brand: 'Ghirardelli',
      product_name: 'Ghirardelli Milk Chocolate Baking Chips 11.5 oz',
    };
    const sibling = levels(
      [{ line: 1, values: { sku: 'WHITE', brand: 'Ghirardelli', name: 'White Chocolate Baking Chips 11.5 oz' } }],
      notice,
      'brand+name',
    );
    expect(sibling.without).toEqual([['WHITE', 'possible', 'brand+name']]);
    expect(sibling.with).toEqual([['WHITE', 'possible', 'brand+name']]);
    // A brand+name pair that is no sibling is promoted: the tier's measure applies to it.
    const plain = levels(
      [{ line: 1, values: { sku: 'MILK', brand: 'Ghirardelli', name: 'Milk Chocolate Chips family pack' } }],
      notice,
      'brand+name',
    );
    expect(plain.without).toEqual([['MILK', 'possible', 'brand+name']]);
    expect(plain.with).toEqual([['MILK', 'match', 'brand+name']]);
  });
});
