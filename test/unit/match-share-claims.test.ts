// "96% FAT FREE" on a label is a claim, not a recipe: the ham it names is the catalogue's ham, and its lot list then decides.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { nameTokens, siblingWord } from '../../src/match/match-keys.js';
import { CatalogueIndex } from '../../src/match/matcher.js';

// FSIS, Olymel (2023): the English alert's product line as published.
const olymel = {
  product_brand: '',
  alert_title: 'Olymel Recalls Ready-To-Eat Ham Products Imported Without the Benefit of Import Reinspection',
  product_name:
    '12-lb. vacuum packed red cross hatch packages containing “EXTRA LEAN Celebrity 96% FAT FREE IMPORTED HAM WATER ADDED” with lot code 23208, 23212 or 23221 printed on the side of the immediate packaging.  ',
  production_dates:
    '12-lb. vacuum packed red cross hatch packages containing “EXTRA LEAN Celebrity 96% FAT FREE IMPORTED HAM WATER ADDED” with lot code 23208, 23212 or 23221 printed on the side of the immediate packaging.  ',
  geo_jurisdictions: ['US'],
};

function catalogue(rows: { name: string; lot: string }[]): Catalogue {
  return {
    file: 'catalogue.csv',
    headers: ['brand', 'name', 'lot'],
    columns: { brand: 'brand', name: 'name', lot: 'lot' },
    rows: rows.map((r, i) => ({ line: i + 1, values: { brand: 'Celebrity', ...r } })),
    repeated: [],
  };
}

describe('a share written before "free"', () => {
  it('is no negator in the name words; "fat free" alone still is', () => {
    expect(nameTokens('EXTRA LEAN Celebrity 96% FAT FREE IMPORTED HAM').has('free')).toBe(false);
    expect(nameTokens('99.5 % lactose-free milk').has('free')).toBe(false);
    expect(siblingWord(nameTokens('Fat Free Milk'), nameTokens('Whole Milk'))).toBe('free');
  });

  it('lets the lot list decide the row: excluded outside it, a match inside it', () => {
    const rows = [
      { name: 'Extra Lean Imported Ham 12lb', lot: '23230' },
      { name: 'Extra Lean Imported Ham 12lb', lot: '23212' },
    ];
    const found = new CatalogueIndex(catalogue(rows)).match(olymel).map((m) => [m.row.line, m.level, m.scope]);
    expect(found).toEqual([
      [2, 'match', 'in-scope'],
      [1, 'excluded', 'out-of-scope'],
    ]);
  });
});
