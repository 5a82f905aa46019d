// The matcher's tiers on a hand-made catalogue, with decoys that must never reach `match`.
import { describe, expect, it } from 'vitest';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { recallCodes } from '../../src/match/recall-codes.js';
import { catalogueOf } from '../helpers/catalogue-rows.js';

const recall = {
  id: 7,
  product_brand: 'Voltra',
  product_name: 'Portable Power Banks',
  product_model_numbers: ['PB-2000/X', 'Q1'],
  standard_identifiers_and_barcodes: [
    { type: 'UPC', value: '036000291452' },
    { type: 'EAN', value: '4006381333932' },
    { type: 'ASIN', value: 'B012345678' },
  ],
};

describe('recallCodes', () => {
  it('reads the barcodes as GTIN-14, a wrong check digit kept as unchecked, never an ASIN', () => {
    // 4006381333931 is the valid EAN-13: the notice's final 2 is a wrong check digit.
    expect(recallCodes(recall)).toEqual([
      { raw: '036000291452', gtin14: '00036000291452', valid: true },
      { raw: '4006381333932', gtin14: '04006381333932', valid: false },
    ]);
  });
});

describe('CatalogueIndex.match', () => {
  const rows = [
    { ean: '0 036000 291452', brand: 'Other', model: '', name: 'Anything' }, // 1 barcode, as EAN-13 with spaces
    { ean: '', brand: 'VOLTRA', model: 'pb 2000 x', name: '' }, // 2 model+brand
    { ean: '', brand: 'Nordvik', model: 'PB.2000.X', name: '' }, // 3 model alone: possible
    { ean: '', brand: 'Voltra', model: '', name: 'Power Bank portable 10000' }, // 4 brand+name: possible
    { ean: '', brand: 'Voltra', model: '', name: 'Desk Lamp' }, // 5 decoy: same brand only
    { ean: '', brand: 'Kidzone', model: '', name: 'Portable Power Banks' }, // 6 decoy: same name, other brand
    { ean: '', brand: 'Voltra', model: '', name: 'New Kids Set' }, // 7 decoy: generic words only
    { ean: '4006381333932', brand: '', model: '', name: '' }, // 8 the notice's own wrong check digit: possible
    { ean: '', brand: 'Voltra', model: 'Q1', name: '' }, // 9 decoy: model too short to count
    { ean: '036000291452', brand: 'Voltra', model: 'PB-2000/X', name: 'Portable Power Banks' }, // 10 barcode beats all
  ];
  const index = new CatalogueIndex(catalogueOf(rows));

  it('each row at its best tier, best first', () => {
    const got = index.match(recall).map((m) => [m.row.line, m.level, m.reason]);
    expect(got).toEqual([
      [1, 'match', 'barcode'],
      [10, 'match', 'barcode'],
      [2, 'match', 'model+brand'],
      [8, 'possible', 'barcode-unchecked'],
      [3, 'possible', 'model'],
      [4, 'possible', 'brand+name'],
    ]);
  });

  it('lists catalogue codes with a wrong check digit, with their row, as unchecked', () => {
    expect(index.rejected).toEqual([
      { line: 8, value: '4006381333932', reason: 'wrong check digit (2, expected 1)', unchecked: true },
    ]);
  });

  it('a recall without brand, model or barcode matches nothing', () => {
    expect(index.match({ id: 1, product_name: 'Portable Power Banks' })).toEqual([]);
  });
});

describe('CatalogueIndex.matchable', () => {
  it('holds the rows a recall can match at all: a valid barcode, a model of 3 or more, or a brand with name words', () => {
    const index = new CatalogueIndex(
      catalogueOf([
        { ean: '4006381333931', brand: '', model: '', name: '' }, // 1 valid barcode
        { ean: '4006381333932', brand: '', model: '', name: '' }, // 2 wrong check digit, nothing else
        { ean: '', brand: '', model: 'A-1', name: '' }, // 3 model key "a1": too short
        { ean: '', brand: '', model: 'XK-200', name: '' }, // 4 model
        { ean: '', brand: 'Voltra', model: '', name: 'Power Bank' }, // 5 brand and name
        { ean: '', brand: '', model: '', name: 'Power Bank' }, // 6 a name without a brand
        { ean: '', brand: 'Voltra', model: '', name: '' }, // 7 a brand without a name
      ]),
    );
    expect([...index.matchable].sort((a, b) => a - b)).toEqual([1, 4, 5]);
  });
});

describe('explain', () => {
  const index = new CatalogueIndex(
    catalogueOf([
      { ean: '', brand: 'VOLTRA', model: 'pb 2000 x', name: '' },
      { ean: '', brand: 'Voltra', model: '', name: 'Power Bank portable 10000' },
    ]),
  );
  it('names the rule and the normalised values it compared, when asked', () => {
    const notice = { ...recall, product_brand: 'Voltra Inc', standard_identifiers_and_barcodes: [] };
    expect(index.match(notice).map((m) => m.explain)).toEqual(['', '']);
    const [a, b] = index.match(notice, { explain: true });
    expect(a?.explain).toBe(
      'model: notice "PB-2000/X" = catalogue "pb 2000 x" (key pb2000x); brand: notice "Voltra Inc" ~ catalogue "VOLTRA" (the same once normalised: "voltra" / "voltra")',
    );
    expect(b?.explain).toBe(
      // Weights worked out by hand: one catalogue row with name words, each word in it once, so each weighs
      // ln((1 + 1) / (1 + 0.5)) = 0.29; three of its four words are in the notice's name: 0.75.
      'brand: notice "Voltra Inc" ~ catalogue "Voltra" (the same once normalised: "voltra" / "voltra"); name words: notice {portable power bank}, catalogue {power bank portable 10000}, shared {portable power bank}, similarity 0.86 >= 0.5' +
        '; weighed cover 0.75 (>= 0.75: power 0.3, bank 0.3, portable 0.3)',
    );
  });
});
