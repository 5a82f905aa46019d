// A catalogue row inside a plain notice scope, its lot or best-before cell written as shops and marketplaces write
// them: never grounds to exclude it (a review of the catalogue side). The notice side: match-scope-never-out.test.ts.
import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../src/match/catalogue-columns.js';
import { judge } from '../helpers/scope-judge.js';

const GB = { geo_jurisdictions: ['GB'] };
const FR = { geo_jurisdictions: ['FR'] };
const US = { geo_jurisdictions: ['US'] };
const LOT_DATE = (geo: Record<string, unknown>) => ({
  product_description: 'Lot 12345, best before 15/06/2025',
  ...geo,
});
const LOT = { product_description: 'Lot 12345.', ...GB };
const RANGE = { product_description: 'Lots L2401 to L2410', ...GB };
const BB15 = { product_description: 'Best before 15/06/2025', ...GB };
const BB17 = { product_description: 'Best before 17/06/2025', ...GB };

// A: a cell that names no lot; B: the recalled lot with a spreadsheet's or a keyboard's leftovers; C: a range or a
// shorthand list holding it; D: a span or a bound of dates holding the recalled date; E: a date read as another day.
const CELLS: [string, Record<string, unknown>, { lot?: string; bb?: string }][] = [
  ['A', LOT_DATE(FR), { lot: 'n/a' }],
  ['A', LOT_DATE(GB), { lot: 'N/A' }],
  ['A', LOT_DATE(US), { lot: 'various' }],
  ['A', LOT, { lot: 'see label' }],
  ['A', LOT, { lot: 'unknown' }],
  ['A', LOT, { lot: 'TBC' }],
  ['A', LOT, { lot: 'mixed' }],
  ['A', LOT, { lot: 'multiple' }],
  ['A', LOT, { lot: 'all' }],
  ['A', LOT, { lot: 'All lots' }],
  ['A', LOT, { lot: 'none' }],
  ['A', LOT, { lot: 'NA' }],
  ['A', LOT, { lot: '?' }],
  ['A', LOT, { lot: '—' }],
  ['A', LOT, { lot: 'k.A.' }],
  ['A', LOT, { lot: 'divers' }],
  ['A', LOT, { lot: 'sin lote' }],
  ['A', LOT, { lot: 's/o' }],
  ['B', LOT_DATE(GB), { lot: "'12345" }],
  ['B', LOT, { lot: '"12345"' }],
  ['B', LOT, { lot: '“12345”' }],
  ['B', LOT, { lot: '１２３４５' }],
  ['B', RANGE, { lot: 'L２４０５' }],
  ['B', LOT, { lot: '\u200b12345' }],
  ['B', LOT, { lot: '12345.0' }],
  ['B', LOT, { lot: '1.2345E+04' }],
  ['B', LOT, { lot: '12,345' }],
  ['B', LOT, { lot: '(12345)' }],
  ['B', LOT, { lot: '[12345]' }],
  ['B', LOT, { lot: '№12345' }],
  ['C', LOT, { lot: '12340-12350' }],
  ['C', LOT, { lot: '12344 - 12346' }],
  ['C', LOT, { lot: '12340 à 12350' }],
  ['C', LOT, { lot: '12340-50' }],
  ['C', LOT, { lot: '12344/45' }],
  ['C', RANGE, { lot: '2400-2405' }],
  ['D', BB17, { bb: '15/06/2025 - 20/06/2025' }],
  ['D', BB17, { bb: '15/06/2025 to 20/06/2025' }],
  ['D', BB17, { bb: '15.06.2025 bis 20.06.2025' }],
  ['D', BB17, { bb: '15/06/2025 – 20/06/2025' }],
  ['D', BB17, { bb: '15.-20.06.2025' }],
  ['D', BB17, { bb: 'before 20/06/2025' }],
  ['D', BB17, { bb: 'after 15/06/2025' }],
  ['D', BB17, { bb: '2025-06-15 / 2025-06-20' }],
  ['D', BB17, { bb: 'on or before 20/06/2025' }],
  ['D', BB17, { bb: '≥ 15/06/2025' }],
  ['E', BB15, { bb: '10-20/06/2025' }],
  ['E', BB15, { bb: '2025-06-14T22:00:00Z' }],
  ['E', BB15, { bb: '25/06/15' }],
  ['E', BB15, { bb: '2025-06-14 23:00:00 UTC' }],
];

describe('a row cell written as shops write it is never grounds to exclude a row the notice covers', () => {
  it.each(CELLS)('%s %j %j', (_group, notice, row) => {
    expect(judge(notice, row).level).not.toBe('excluded');
  });
});

describe('the same notices still prove a plainly written row out', () => {
  it.each<[Record<string, unknown>, { lot?: string; bb?: string }]>([
    [LOT, { lot: '67890' }],
    [LOT, { lot: "'67890" }],
    [LOT, { lot: '67890.0' }],
    [RANGE, { lot: 'L2411' }],
    [BB15, { bb: '20/06/2025' }],
    [BB15, { bb: '2025-06-20' }],
    [BB15, { bb: '20.06.25' }],
  ])('%j %j', (notice, row) => {
    expect(judge(notice, row).level).toBe('excluded');
  });
});

describe('the best-before column', () => {
  it('is never a bare "date" column (a listing or delivery date proved rows out)', () => {
    expect(resolveColumns(['ean', 'name', 'date'], {}).best_before).toBeUndefined();
    expect(resolveColumns(['ean', 'name', 'best_before'], {}).best_before).toBe('best_before');
    expect(resolveColumns(['ean', 'name', 'date'], { best_before: 'date' }).best_before).toBe('date');
  });
});
