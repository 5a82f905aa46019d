// The FDA's product lines that list several of a brand's products joined by semicolons: a row is one of them, never
// words gathered from two ("Chocolate Milk" from "Whole Milk" and "Chocolate Cookies"); a semicolon that parts one
// product's facts keeps the line whole.
import { describe, expect, it } from 'vitest';
import { nameTokens } from '../../src/match/match-keys.js';
import { noticeItems } from '../../src/match/notice-items.js';
import { matchesOf } from '../helpers/catalogue-rows.js';

const items = (name: string) => noticeItems(name, nameTokens(name)).items.map((i) => [...i.tokens].sort().join(' '));

describe('a semicolon list of one brand', () => {
  const recall = {
    product_brand: 'Great Value',
    product_name: 'Great Value Whole Milk, 1 gallon; Great Value Chocolate Chip Cookies, 13 oz',
    geo_jurisdictions: ['US'],
  };

  it('is one product a part', () => {
    expect(items(recall.product_name)).toHaveLength(2);
  });

  it('matches a row that is one of them', () => {
    expect(matchesOf([{ brand: 'Great Value', name: 'Whole Milk 1 gal' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
    expect(matchesOf([{ brand: 'Great Value', name: 'Chocolate Chip Cookies 13 oz' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
  });

  it('never matches words gathered from two of them', () => {
    const [m] = matchesOf([{ brand: 'Great Value', name: 'Chocolate Milk 1 gal' }], recall);
    expect(m?.level).not.toBe('match');
  });
});

describe('a semicolon that parts one product', () => {
  it.each([
    // The FDA's own lines: the product, then its pack or its code (us_fda_food, 2024-2025).
    ['Cinnamon Powder; 8oz clear plastic container.'],
    ['Aojia Dried Red Bayberry; packaged in 5.6oz (160g) clear plastic bottle; UPC 6942514920327'],
    ['Zen Cleanse Blend herbal tea; .95 oz (27g) pouch; 18 pouches/box'],
    // An entity's semicolon, as FSIS's text arrives: `&quot;Hormel Spiced Ham&quot;`.
    ['5-lb. plastic casing containing &quot;Hormel Spiced Ham With Natural Juices&quot; with lot code 051424'],
  ])('keeps %s whole', (name) => {
    expect(items(name)).toEqual([[...nameTokens(name)].sort().join(' ')]);
  });
});
