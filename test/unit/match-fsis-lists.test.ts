// The matcher on FSIS notices that list several products: sizes as FSIS writes them, a reason inside one bullet, siblings per product.
import { describe, expect, it } from 'vitest';
import { noticeName } from '../../src/match/match-keys.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { packSizes } from '../../src/match/pack-sizes.js';
import { catalogueOf } from '../helpers/catalogue-rows.js';

const found = (rows: Record<string, string>[], recall: Record<string, unknown>) =>
  new CatalogueIndex(catalogueOf(rows)).match(recall, { explain: true }).map((m) => ({
    line: m.row.line,
    level: m.level,
    reason: m.reason,
    explain: m.explain ?? '',
  }));

/** Grams or millilitres, rounded; a pound is 453.59237 g and a US fluid ounce 29.5735 ml, by definition. */
const grams = (text: string) => packSizes(text).map((s) => `${s.family} ${Math.round(s.value)}`);

describe('pack sizes as FSIS writes them', () => {
  it('reads pounds written "#" after the number (Quality Poultry & Seafood, 029-2025)', () => {
    expect(grams('frozen catfish fillet products labeled “VARIED CATFISH MISCUT FILLETS”, and Net Wt. 5#.')).toEqual([
      'mass 2268',
    ]);
    expect(grams('and Net Wt. 15#.')).toEqual(['mass 6804']);
    // An item number's "#" comes before its digits: no size.
    expect(grams('Costco Item# 19927')).toEqual([]);
  });

  it('reads fluid ounces hyphenated throughout (Common Sense Soap, Lady May tallow)', () => {
    expect(grams('•\t24-fl-oz. glass jar containing “PREMIUM QUALITY GOODS Grass-fed beef TALLOW Lady May”')).toEqual([
      'volume 710',
    ]);
  });

  it('finds the row once the sizes are read: a size it could not read no longer makes the row a sibling', () => {
    const recall = {
      product_brand: 'Quality Poultry & Seafood, Inc.',
      product_name:
        '•\tTranslucent plastic bag packages containing various pieces of frozen catfish fillet products labeled “VARIED CATFISH MISCUT FILLETS, FARMED RAISED CATFISH PRODUCT OF USA”, and Net Wt. 5#., •\tTranslucent plastic bag packages containing various pieces of frozen catfish fillet products labeled “IRREGULAR CATFISH SHANK FILLET, FARMED RAISED CATFISH PRODUCT OF USA”, and Net Wt. 5#., •\tVacuum sealed translucent plastic bag packages containing “CATFISH NUGGETS” and Net Wt. 9oz.',
    };
    const rows = [
      { brand: 'Quality Poultry & Seafood', name: 'Varied Catfish Miscut Fillets 5 lb' },
      { brand: 'Quality Poultry & Seafood', name: 'Varied Catfish Miscut Fillets 2 lb' },
    ];
    expect(found(rows, recall)).toMatchObject([{ line: 1, level: 'match', reason: 'brand+full-name' }]);
  });
});

describe('a reason written inside one listed product', () => {
  // Idaho Smokehouse Partners (CHOMPS): the first bullet says "subject to recall"; the second is the 12-count bag.
  const chomps = {
    product_brand: 'Idaho Smokehouse Partners LLC',
    product_name:
      '•\t1.15-oz vacuum-sealed packages of “CHOMPS ORIGINAL BEEF STICK MILD,” with an expiration date of 02-10-2026, and lot code 25016 printed on the label. The product subject to recall bears establishment number “6220A” ink-jetted on the package. , •\t13.8-oz plastic bags containing 12 1.15-oz vacuum-sealed packages of “CHOMPS ORIGINAL BEEF STICK MILD.” The plastic bags bear establishment number “V2059”.',
  };

  it('is cut up to the next product, not to the end of the list', () => {
    const name = noticeName(chomps.product_name);
    expect(name).toContain('printed on the label. The product subject to');
    expect(name).not.toContain('6220A');
    expect(name).toContain('13.8-oz plastic bags containing 12 1.15-oz');
  });

  it('a name with no list is still cut at its reason', () => {
    expect(noticeName('Wegmans Roasted Cashews recalled due to off odour')).toBe('Wegmans Roasted Cashews');
  });

  it('the 12-count bag of the second bullet is a match; another size of the brand is not', () => {
    const rows = [
      { brand: 'CHOMPS', name: 'Original Beef Stick Mild 12 ct 13.8 oz' },
      { brand: 'CHOMPS', name: 'Original Beef Stick Mild 24 ct 27.6 oz' },
    ];
    expect(found(rows, chomps)).toMatchObject([{ line: 1, level: 'match', reason: 'brand+full-name' }]);
  });
});
