// Brands as agencies write them ("TRIBORD - DECATHLON", "Baby Jogger LLC", "Target Recalls Cat & Jack…") and pack sizes in names.
import { describe, expect, it } from 'vitest';
import { brandCore, brandParts, relateBrands, titleBrandText } from '../../src/match/brands.js';
import { nameTokens } from '../../src/match/match-keys.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { catalogueOf } from '../helpers/catalogue-rows.js';

describe('brandCore', () => {
  it.each([
    ['Baby Jogger LLC', 'baby jogger'],
    ['The Boppy Company', 'boppy'],
    ['Sunbeam Products, Inc.', 'sunbeam'],
    ['LIDL France SAS', 'lidl france'],
    ['Haribo GmbH & Co. KG', 'haribo'],
    ['Products', 'products'],
    ["L'Oréal", 'l oreal'],
    // FDA 3217506's recalling firm: a leading "The" written last.
    ['Ambriola Co., Inc., The', 'ambriola'],
    ['The', 'the'],
  ])('%s is %s', (raw, core) => {
    expect(brandCore(raw)).toBe(core);
  });
});

describe('brandParts', () => {
  it('splits lists and keeps the whole', () => {
    expect(brandParts('TRIBORD - DECATHLON')).toEqual({
      strong: ['tribord decathlon', 'tribord', 'decathlon'],
      weak: [],
    });
    expect(brandParts('AUCHAN/POUCE')).toEqual({ strong: ['auchan pouce', 'auchan', 'pouce'], weak: [] });
    expect(brandParts('Cat & Jack')).toEqual({ strong: ['cat jack'], weak: ['cat', 'jack'] });
    expect(brandParts('Fisher-Price')).toEqual({ strong: ['fisher price'], weak: [] });
  });
});

describe('relateBrands', () => {
  it.each([
    ['baby jogger', 'baby jogger', 'same'],
    ['carrefour selection', 'carrefour', 'contained'],
    ['nestle purina', 'purina one', 'shared-word'],
    ['baby jogger', 'baby brezza', undefined],
    ['carrefour selection', 'auchan selection', undefined],
    ['sun', 'sun zero', 'contained'],
    ['sunbeam', 'sun', undefined],
  ])('%s ~ %s: %s', (a, b, how) => {
    expect(relateBrands(a, b)).toBe(how);
  });
});

describe('titleBrandText', () => {
  it('reads the title after the firm when the brand field names the firm, or nothing', () => {
    expect(titleBrandText("Target Recalls Cat & Jack Toddler Boys' Boots Due to Fall Hazard", 'Target')).toBe(
      'cat jack toddler boys boots',
    );
    // Where it was sold and why are not the product's words: a retailer named there is no brand of it.
    expect(
      titleBrandText('Hormel Foods Recalls Chili With Beans Sold at Walmart Due to Misbranding', 'Hormel Foods'),
    ).toBe('chili with beans');
    expect(titleBrandText('Acme Recalls Heaters; Sold Exclusively at Costco', '')).toBe('heaters');
    expect(
      titleBrandText(
        'FSIS Issues Public Health Alert for Bismillah Halal Meats Ground Beef Due to Possible E. Coli O103 Contamination',
        '',
      ),
    ).toBe('bismillah halal meats ground beef');
    expect(titleBrandText('Target Recalls Cat & Jack Boots', '')).toBe('cat jack boots');
    expect(titleBrandText('Target Recalls Cat & Jack Boots', 'Mattel')).toBeUndefined();
    expect(titleBrandText('Boots sold at Target', 'Target')).toBeUndefined();
  });
});

describe('nameTokens: quantities and units are never name words', () => {
  it.each([
    ['Lait demi-écrémé 1 L', ['lait', 'demi', 'ecreme']],
    ['Chocolate Chip Cookies 14 oz', ['chocolate', 'chip', 'cookie']],
    ['Fromage blanc 500g', ['fromage']],
    ['Bière blonde 12 x 33cl', ['biere', 'blonde']],
    ['Eau minérale 6x 1,5L', ['eau', 'minerale']],
    ['iPhone 12', ['iphone', '12']],
  ])('%s', (name, tokens) => {
    expect([...nameTokens(name)]).toEqual(tokens);
  });
});

const catalogue = (rows: Record<string, string>[]) => catalogueOf(rows, 'c.csv');
const row = (brand: string, name: string, model = '') => ({ ean: '', brand, model, name });

describe('brands in the matcher', () => {
  const index = new CatalogueIndex(
    catalogue([
      row('Tribord', 'Gilet de sauvetage 100N', 'LJ-100'), // 1
      row('Pouce', 'Compote pomme'), // 2
      row('Baby Jogger', 'City Mini GT2 stroller'), // 3
      row('Boppy', 'Original Newborn Lounger'), // 4
      row('Cat & Jack', "Toddler Boys' Boots"), // 5
      row('Carrefour', 'Fromage blanc nature 500g'), // 6
      row('Carrefour', 'Yaourt nature 500g'), // 7 decoy: only the pack size is shared with 6
      row('Baby Brezza', 'City Mini GT2 stroller'), // 8 decoy: shares only "baby"
      row('Jack & Jones', "Toddler Boys' Boots", 'JJ-100'), // 9 decoy: shares only a half of "A & B" with 5
      row('Mars', 'Barres chocolat', 'MB-20'), // 10 a whole brand equal to a half of the notice's "A & B"
      row('Purina One', 'Croquettes chat adulte', 'PO-5'), // 11 shares the word "purina" with "Nestlé Purina"
    ]),
  );
  const levels = (recall: Record<string, unknown>) => index.match(recall).map((m) => [m.row.line, m.level, m.reason]);

  it('"TRIBORD - DECATHLON" with a model is model+brand; "AUCHAN/POUCE" with every word of the name is brand+full-name', () => {
    expect(levels({ product_brand: 'TRIBORD - DECATHLON', product_model_numbers: ['LJ 100'] })).toEqual([
      [1, 'match', 'model+brand'],
    ]);
    // The brand field names the row's brand and the notice's name holds every word of the catalogue's: a match.
    expect(levels({ product_brand: 'AUCHAN/POUCE', product_name: 'Compote de pomme' })).toEqual([
      [2, 'match', 'brand+full-name'],
    ]);
  });

  it('"Baby Jogger LLC" and "The Boppy Company" find their products; "baby" alone ties nothing', () => {
    expect(levels({ product_brand: 'Baby Jogger LLC', product_name: 'City Mini GT2 Strollers' })).toEqual([
      [3, 'match', 'brand+full-name'],
    ]);
    expect(levels({ product_brand: 'The Boppy Company', product_name: 'Boppy Original Newborn Loungers' })).toEqual([
      [4, 'match', 'brand+full-name'],
    ]);
  });

  it('a CPSC notice whose brand is the recalling firm: the brand is read from the title', () => {
    const recall = {
      product_brand: 'Target',
      alert_title: "Target Recalls Cat & Jack Toddler Boys' Boots Due to Fall Hazard",
      product_name: "Cat & Jack Toddler Boys' Boots",
    };
    const [m] = index.match(recall, { explain: true });
    // Named by the title as the recalled brand, it counts as a brand field does: every word of the row's name.
    expect([m?.row.line, m?.level, m?.reason]).toEqual([5, 'match', 'brand+full-name']);
    expect(m?.explain).toContain("named in the notice's title");
  });

  it('two "A & B" brands never meet through a shared half; a half equal to a whole brand does', () => {
    expect(levels({ product_brand: 'Cat & Jack', product_name: "Toddler Boys' Boots" })).toEqual([
      [5, 'match', 'brand+full-name'],
    ]);
    expect(levels({ product_brand: 'Jack Wolfskin', product_model_numbers: ['JJ-100'] })).toEqual([
      [9, 'possible', 'model'],
    ]);
    expect(levels({ product_brand: 'Mars & Co Distribution', product_model_numbers: ['MB 20'] })).toEqual([
      [10, 'match', 'model+brand'],
    ]);
  });

  it('a shared distinctive word ties brands for a name, but with a model alone it stays possible', () => {
    expect(levels({ product_brand: 'Nestlé Purina', product_name: 'Croquettes pour chat adulte' })).toEqual([
      [11, 'possible', 'brand+name'],
    ]);
    const [m] = index.match({ product_brand: 'Nestlé Purina', product_model_numbers: ['PO 5'] }, { explain: true });
    expect([m?.row.line, m?.level, m?.reason]).toEqual([11, 'possible', 'model']);
    expect(m?.explain).toContain('a shared distinctive word');
    expect(m?.explain).toContain('not enough for model+brand');
  });

  it('"Carrefour Sélection" contains Carrefour; a shared 500g is not a shared word; a brand alone is never a match', () => {
    expect(levels({ product_brand: 'Carrefour Sélection', product_name: 'Fromage blanc 500 g' })).toEqual([
      [6, 'possible', 'brand+name'],
    ]);
    expect(levels({ product_brand: 'Carrefour', product_name: 'Beurre doux 500g' })).toEqual([]);
    expect(levels({ product_brand: 'Baby Jogger' })).toEqual([]);
  });
});

describe('a brand whose words the notice writes in order, with words between', () => {
  it('"Foster Farms" is the brand of "Foster Poultry Farms, LLC"; one shared word stays a hint', () => {
    expect(relateBrands('foster farms', 'foster poultry farms')).toBe('contained');
    expect(relateBrands('foster poultry farms', 'foster farms')).toBe('contained');
    // Words side by side are contained wherever they stand; out of order, only a shared word.
    expect(relateBrands('poultry farms', 'foster poultry farms')).toBe('contained');
    expect(relateBrands('farms foster', 'foster poultry farms')).toBe('shared-word');
    expect(relateBrands('sulu nutrition', 'sulu organics')).toBe('shared-word');
  });

  it('finds the corn dogs of FSIS 031-2025 at match by name, not the brand’s other products', () => {
    const recall = {
      alert_title:
        'Foster Poultry Farms, LLC Recalls Chicken Corn Dog and Ground Turkey on a Stick Products Due To Possible Extraneous Matter Contamination',
      product_brand: 'Foster Poultry Farms, LLC',
      product_name: '',
    };
    const catalogue = catalogueOf([
      { brand: 'Foster Farms', name: 'Chicken Corn Dogs 10 ct' },
      { brand: 'Foster Farms', name: 'Honey Roasted Chicken Breast' },
      { brand: 'Sulu Nutrition', name: 'Chicken Corn Dogs' },
    ]);
    const found = new CatalogueIndex(catalogue).match(recall, { explain: false });
    expect(found.map((m) => [m.row.line, m.level, m.reason])).toEqual([[1, 'match', 'brand+full-name']]);
  });
});
