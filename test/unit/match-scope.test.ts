// Scope parsing on sentences as RappelConso, the CPSC and German notices write them, and rows checked against them.
import { describe, expect, it } from 'vitest';
import { checkScope } from '../../src/match/scope-check.js';
import { cellDates, columnOrder, type DateOrder } from '../../src/match/scope-dates.js';
import { recallScope, scopeOfIdentifier, scopeOfText } from '../../src/match/scope.js';

const ID = 'standard_identifiers_and_barcodes';
const span = (text: string, order: DateOrder = 'day-first') =>
  scopeOfText(text, 'production_dates', order).flatMap((d) => (d.kind === 'date' ? [[d.from, d.to]] : []));

describe('dates', () => {
  it.each([
    ['Date de durabilité minimale 04/04/2021', [['2021-04-04', '2021-04-04']]],
    ['MHD 04.04.21', [['2021-04-04', '2021-04-04']]],
    ['DDM 04/2021', [['2021-04-01', '2021-04-30']]],
    ['du 01/03/2021 au 15/03/2021', [['2021-03-01', '2021-03-15']]],
    ['vom 4. April 2021 bis 10. April 2021', [['2021-04-04', '2021-04-10']]],
    [
      'Best before 12 May 2021 and 4 June 2021',
      [
        ['2021-05-12', '2021-05-12'],
        ['2021-06-04', '2021-06-04'],
      ],
    ],
    ['à consommer jusqu’au 3 août 2020', [['2020-08-03', '2020-08-03']]],
    [
      '2021-04-04, 2021-04-06',
      [
        ['2021-04-04', '2021-04-04'],
        ['2021-04-06', '2021-04-06'],
      ],
    ],
  ])('%s', (text, expected) => {
    expect(span(text)).toEqual(expected);
  });

  it('reads 04/05/2021 day first in Europe, month first in the US, both ways when unknown; 13/04 or 04/13 one way only', () => {
    expect(span('04/05/2021')).toEqual([['2021-05-04', '2021-05-04']]);
    expect(span('04/05/2021', 'month-first')).toEqual([['2021-04-05', '2021-04-05']]);
    expect(span('04/05/2021', 'either')).toEqual([
      ['2021-05-04', '2021-05-04'],
      ['2021-04-05', '2021-04-05'],
    ]);
    expect(span('04/13/2021')).toEqual([['2021-04-13', '2021-04-13']]);
    expect(span('13/04/2021', 'month-first')).toEqual([['2021-04-13', '2021-04-13']]);
  });

  it('a catalogue cell: ISO, a month, and 05/04/2021 both ways unless its column shows the order', () => {
    expect(cellDates('2021-04-04')).toEqual([{ from: '2021-04-04', to: '2021-04-04' }]);
    expect(cellDates('05/04/2021')).toEqual([
      { from: '2021-04-05', to: '2021-04-05' },
      { from: '2021-05-04', to: '2021-05-04' },
    ]);
    expect(cellDates('05/04/2021', 'day-first')).toEqual([{ from: '2021-04-05', to: '2021-04-05' }]);
    expect(cellDates('04/2021')).toEqual([{ from: '2021-04-01', to: '2021-04-30' }]);
    expect(cellDates('soon')).toEqual([]);
    expect(columnOrder(['01/02/2025', '13/02/2025'])).toBe('day-first');
    expect(columnOrder(['01/02/2025', '02/13/2025'])).toBe('month-first');
    expect(columnOrder(['01/02/2025', '2025-02-03'])).toBe('either');
  });
});

describe('a notice identifier line (RappelConso)', () => {
  it('"3564709006031 V028 Date de durabilité minimale 04/04/2021": lot V028, best before 04/04/2021', () => {
    const items = scopeOfIdentifier('3564709006031 V028 Date de durabilité minimale 04/04/2021');
    expect(items).toContainEqual({
      kind: 'lot',
      lot: 'v028',
      field: ID,
      text: '3564709006031 V028 Date de durabilité minimale 04/04/2021',
      gtin14: '03564709006031',
      sure: true,
    });
    expect(items).toContainEqual({
      kind: 'date',
      dateKind: 'best-before',
      from: '2021-04-04',
      to: '2021-04-04',
      field: ID,
      text: 'Date de durabilité minimale 04/04/2021',
      gtin14: '03564709006031',
      sure: true,
    });
  });

  it('"L0237 Date limite de consommation 12/11/2020": lot L0237, use by 12 November 2020', () => {
    const items = scopeOfIdentifier({ type: 'GTIN', value: 'L0237 Date limite de consommation 12/11/2020' });
    expect(items.filter((i) => i.kind === 'lot').map((i) => i.kind === 'lot' && i.lot)).toEqual(['l0237']);
    expect(items).toContainEqual(
      expect.objectContaining({ kind: 'date', dateKind: 'use-by', from: '2020-11-12', to: '2020-11-12' }),
    );
  });

  it('"Tous les lots" is all lots; a {type: batch} value is a lot; a bare GTIN or ASIN names none', () => {
    // 3250391773818's check digit is wrong (7 is right): the line is tied to no product, so it holds for every row.
    expect(scopeOfIdentifier('3250391773818 Tous les lots')).toEqual([
      { kind: 'all-lots', field: ID, text: 'Tous les lots', sure: true },
    ]);
    expect(scopeOfIdentifier('3250391773817 Tous les lots')).toEqual([
      { kind: 'all-lots', field: ID, text: 'Tous les lots', gtin14: '03250391773817', sure: true },
    ]);
    expect(scopeOfIdentifier({ type: 'batch', value: 'L12345' })).toEqual([
      { kind: 'lot', lot: 'l12345', field: ID, text: 'batch L12345', sure: true },
    ]);
    expect(scopeOfIdentifier({ type: 'EAN', value: '3564709006031' })).toEqual([]);
    expect(scopeOfIdentifier({ type: 'ASIN', value: 'B0C1234567' })).toEqual([]);
  });
});

describe('a notice text', () => {
  it('French: "Lots 2104A et 2105B, DDM du 01/03/2021 au 15/03/2021"', () => {
    const items = scopeOfText('Lots 2104A et 2105B, DDM du 01/03/2021 au 15/03/2021', 'production_dates');
    expect(items.filter((i) => i.kind === 'lot').map((i) => i.kind === 'lot' && i.lot)).toEqual(['2104a', '2105b']);
    expect(items).toContainEqual(
      expect.objectContaining({ kind: 'date', dateKind: 'best-before', from: '2021-03-01', to: '2021-03-15' }),
    );
  });

  it('English (CPSC): "Batch code 21045; Best by dates between 01/02/2024 and 03/15/2024", month first', () => {
    const items = recallScope({
      geo_jurisdictions: ['US'],
      product_description: 'Batch code 21045; Best by dates between 01/02/2024 and 03/15/2024',
    });
    expect(items).toContainEqual(expect.objectContaining({ kind: 'lot', lot: '21045', field: 'product_description' }));
    expect(items).toContainEqual(
      expect.objectContaining({ kind: 'date', dateKind: 'best-before', from: '2024-01-02', to: '2024-03-15' }),
    );
  });

  it('German: "Charge: 1234567, MHD 04.04.2021" and "alle Chargen"', () => {
    const items = scopeOfText('Charge: 1234567, MHD 04.04.2021', 'packaging_description');
    expect(items).toContainEqual(expect.objectContaining({ kind: 'lot', lot: '1234567' }));
    expect(items).toContainEqual(
      expect.objectContaining({ kind: 'date', dateKind: 'best-before', from: '2021-04-04' }),
    );
    expect(scopeOfText('Betroffen sind alle Chargen.', 'product_description')).toEqual([
      { kind: 'all-lots', field: 'product_description', text: 'alle Chargen', sure: true },
    ]);
  });

  it('an unlabelled sale period is kept as a period; a quantity after "charge" is not a lot', () => {
    const items = scopeOfText('Du 01/02/2025 au 12/03/2025', 'production_dates', 'day-first');
    expect(items).toEqual([
      expect.objectContaining({ kind: 'date', dateKind: 'period', from: '2025-02-01', to: '2025-03-12' }),
    ]);
    expect(scopeOfText('Charge 25 kg maximum', 'product_description')).toEqual([]);
  });
});

describe('checkScope', () => {
  const notice = scopeOfIdentifier('3564709006031 V028 Date de durabilité minimale 04/04/2021');
  it('the lot named: in scope, with the notice line as evidence', () => {
    expect(checkScope(notice, { lot: 'V028' })).toEqual({
      scope: 'in-scope',
      evidence: `${ID}: "3564709006031 V028 Date de durabilité minimale 04/04/2021"`,
    });
  });
  it('lot V031 is not among them: out of scope', () => {
    expect(checkScope(notice, { lot: 'v 031' }).scope).toBe('out-of-scope');
  });
  it('a best-before date named, or not', () => {
    expect(checkScope(notice, { dates: [{ from: '2021-04-04', to: '2021-04-04' }] }).scope).toBe('in-scope');
    const other = checkScope(notice, { dates: [{ from: '2021-04-05', to: '2021-04-05' }] });
    expect(other).toEqual({
      scope: 'out-of-scope',
      evidence: `${ID}: "Date de durabilité minimale 04/04/2021"`,
      on: 'date',
    });
  });
  it('long notice text is quoted up to 200 characters, never halving an emoji', () => {
    const text = `Lot V028 ${'x'.repeat(190)}🥫🥫 and more words after the cut`;
    const items = scopeOfIdentifier(text).map((i) => ({ ...i, text }));
    const { evidence } = checkScope(items, { lot: 'V028' });
    // Written out by hand: 'Lot V028 ' (9) + 190 x + one 🥫 make 200 code points, then the ellipsis.
    expect(evidence).toBe(`${ID}: "Lot V028 ${'x'.repeat(190)}🥫…"`);
    expect(evidence).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
  it('all lots: any lot is in scope; a row with no lot or date is unknown; a notice naming nothing is unknown', () => {
    expect(checkScope(scopeOfIdentifier('Tous les lots'), { lot: 'X1' }).scope).toBe('in-scope');
    expect(checkScope(notice, {}).scope).toBe('unknown');
    expect(checkScope([], { lot: 'V028' })).toEqual({ scope: 'unknown', evidence: '' });
  });
  it("a notice listing several products: a row is judged on its own product's lines", () => {
    const two = scopeOfIdentifier(
      '3560071083410$L1$Date limite de consommation$15/09/2022|3560071083427$L2$Date limite de consommation$16/09/2022',
    );
    expect(checkScope(two, { lot: 'L2' }, ['03560071083410']).scope).toBe('out-of-scope');
    expect(checkScope(two, { lot: 'L1' }, ['03560071083410']).scope).toBe('in-scope');
    // Matched by model or name (no barcode of the notice's): every line counts.
    expect(checkScope(two, { lot: 'L2' }).scope).toBe('in-scope');
  });

  it('a sale period never excludes a best-before date', () => {
    const period = scopeOfText('Du 01/02/2025 au 12/03/2025', 'production_dates');
    expect(checkScope(period, { dates: [{ from: '2026-01-01', to: '2026-01-01' }] }).scope).toBe('unknown');
  });
});

describe('RappelConso export forms', () => {
  it('"21151-4509 Date limite de consommation 08/06/2021": a lot with a dash, no GTIN before it', () => {
    const items = scopeOfIdentifier('21151-4509 Date limite de consommation 08/06/2021');
    expect(items.filter((i) => i.kind === 'lot').map((i) => i.kind === 'lot' && i.lot)).toEqual(['21151-4509']);
  });

  it('"GTIN$lot$kind$date|…": one product per part, a numeric lot kept apart from the GTIN before it', () => {
    const items = scopeOfIdentifier(
      '3560071083410$2230$Date limite de consommation$15/09/2022|3560071083427$2231$Date limite de consommation$16/09/2022',
    );
    expect(items.filter((i) => i.kind === 'lot').map((i) => i.kind === 'lot' && i.lot)).toEqual(['2230', '2231']);
    expect(items.filter((i) => i.kind === 'date').map((i) => i.kind === 'date' && i.from)).toEqual([
      '2022-09-15',
      '2022-09-16',
    ]);
  });
});

describe('lot labels', () => {
  it.each([
    ['N° de lot : 21A045', ['21a045']],
    ['Lot n° 1234, 1235 et 1236', ['1234', '1235', '1236']],
    ['Lot number: AB12', ['ab12']],
    ['Los-Nr. L2104', ['l2104']],
    ['Chargennummer 88123', ['88123']],
    ['Lot de 6 bouteilles', []],
  ])('%s', (text, lots) => {
    const items = scopeOfText(text, 'product_description');
    expect(items.filter((i) => i.kind === 'lot').map((i) => i.kind === 'lot' && i.lot)).toEqual(lots);
  });
});
