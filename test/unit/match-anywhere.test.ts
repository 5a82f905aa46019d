// Identifiers and brands where agencies write them (issue 34): a code in free text, brands in prose, marks and possessives.
import { describe, expect, it } from 'vitest';
import { brandsInText } from '../../src/match/brands.js';
import type { Catalogue } from '../../src/match/catalogue.js';
import { brandKey } from '../../src/match/match-keys.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { recallCodes } from '../../src/match/recall-codes.js';

const catalogue = (rows: Record<string, string>[]): Catalogue => ({
  file: 'c.csv',
  headers: ['sku', 'upc', 'brand', 'name'],
  columns: { gtin: 'upc', brand: 'brand', name: 'name' },
  rows: rows.map((values, i) => ({ line: i + 1, values })),
  repeated: [],
});
const levels = (rows: Record<string, string>[], recall: Record<string, unknown>) =>
  new CatalogueIndex(catalogue(rows)).match(recall).map((m) => [m.row.values.sku, m.level, m.reason]);

describe('a barcode written anywhere, with no label', () => {
  // FDA enforcement report code_info, as published: the UPC, then its code dates.
  const codeInfo = '0 11596 85161 7= 11/1/2013 - 11/29/2013; 0 11596 85162 4= 11/1/2013 - 11/29/2013';

  it('an FDA code_info line starting with a spaced UPC is that UPC, check digit verified', () => {
    // 0 1 1 5 9 6 8 5 1 6 1: odd places 0+1+9+8+1+1 = 20, x3 = 60; even 1+5+6+5+6 = 23; 83 -> check digit 7.
    expect(recallCodes({ production_dates: codeInfo }).map((c) => [c.gtin14, c.valid])).toContainEqual([
      '00011596851617',
      true,
    ]);
    expect(levels([{ sku: 'A', upc: '011596851617', brand: 'x', name: 'y' }], { production_dates: codeInfo })).toEqual([
      ['A', 'match', 'barcode'],
    ]);
  });

  it('an unlabelled run whose check digit is wrong, or a short one, names no code (a phone, an order number)', () => {
    expect(recallCodes({ product_description: 'Call 1 800 555 0199 or quote order 011596851618.' })).toEqual([]);
    expect(recallCodes({ product_description: 'Lot 12345678 sold in 2024' })).toEqual([]);
  });
});

describe('brands as agencies write them', () => {
  it.each([
    ["Sainsbury's", 'Sainsburys'],
    ['Lindt®', 'LINDT'],
    ['Nutella(R)', 'nutella'],
    ['Oreo™', 'Oreo'],
    ['H-E-B', 'HEB'],
    ['Kellogg’s', "Kellogg's"],
  ])('%s is %s', (a, b) => {
    expect(brandKey(a)).toBe(brandKey(b));
  });

  it('reads the brand a notice names in its prose', () => {
    expect(
      brandsInText({
        product_description:
          'Chicken and Sausage Gumbo, 16 oz, sold under the H-E-B brand in Texas. Distributed by Trader Joe’s of Monrovia, CA.',
      }),
    ).toEqual(['heb', 'trader joes']);
    expect(brandsInText({ product_description: 'Vendu sous la marque Carrefour Bio, 200 g.' })).toEqual([
      'carrefour bio',
    ]);
    expect(brandsInText({ product_description: 'The recall was initiated after a consumer complaint.' })).toEqual([]);
  });

  it('a brand named only in the prose (an FDA notice has no brand field) ties the same-named row, not its sibling', () => {
    const recall = {
      product_brand: 'H-E-B, LP',
      product_name: 'Chicken and Sausage Gumbo',
      product_description: 'Chicken and Sausage Gumbo, 16 oz cups, sold under the H-E-B brand.',
    };
    const rows = [
      { sku: 'G1', upc: '', brand: 'HEB', name: 'Chicken & Sausage Gumbo 16oz' },
      { sku: 'G2', upc: '', brand: 'HEB', name: 'Seafood Gumbo 16oz' },
    ];
    // "sold under the H-E-B brand" counts as the brand field; every word of G1's name is in the notice's.
    expect(levels(rows, { ...recall, product_brand: '' })).toEqual([['G1', 'match', 'brand+full-name']]);
  });
});

describe("a brand's sibling product is not the recalled one", () => {
  it.each([
    // Ben & Jerry's recalled the non-dairy Chunky Monkey; Lindt's dark bar; a steak and ale pie. Each sibling shares
    // every other word with the notice's name: without the guard it would be found (checked by disabling it).
    ["Ben & Jerry's", 'Chunky Monkey Non-Dairy Frozen Dessert', 'Chunky Monkey Frozen Dessert'],
    ['Lindt', 'Excellence 70% Dark Chocolate Bar', 'Excellence Milk Chocolate Bar'],
    ['Pukka', 'Steak and Ale Pie family size', 'Beef and Ale Pie family size'],
    // Health Canada: President's Choice's roasted cashews; the brand's roasted almonds share every other word.
    ["President's Choice", 'Roasted Cashews with Sea Salt', 'Roasted Almonds with Sea Salt'],
    ['Kirkland Signature', 'Shelled Pistachios', 'Shelled Walnuts'],
  ])('%s: "%s" is not "%s"', (brand, notice, row) => {
    const rows = [
      { sku: 'SAME', upc: '', brand, name: notice },
      { sku: 'SIBLING', upc: '', brand, name: row },
    ];
    // The same product is found (as match or possible, as its words decide); the sibling never is.
    expect(levels(rows, { product_brand: brand, product_name: notice }).map(([sku]) => sku)).toEqual(['SAME']);
  });
});
