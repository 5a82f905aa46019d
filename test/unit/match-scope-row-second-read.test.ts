// A second read of the catalogue side of the scope check: a row is `excluded` only when the notice proves it out, and
// anything the catalogue row does not say whole (a GS1 date that is not the pack's, a word before a colon, a range
// with another dash, a lot in Excel's number form beside another lot column, a date column whose own cells do not
// show their order, a "1100 f") leaves it a match to verify.
import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../src/match/catalogue-columns.js';
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { EAN, FR, GB, judge } from '../helpers/scope-judge.js';

/** Catalogue rows of the given columns (each holding the notice's barcode unless given): each row's level and scope. */
function judgeRows(notice: Record<string, unknown>, rows: Record<string, string>[]) {
  const headers = Object.keys(rows[0] ?? {});
  const catalogue: Catalogue = {
    file: 'c.csv',
    headers,
    columns: resolveColumns(headers, {}),
    rows: rows.map((values, i) => ({ line: i + 1, values })),
    repeated: [],
  };
  const recall = { standard_identifiers_and_barcodes: [{ type: 'EAN', value: EAN }], ...notice };
  return new CatalogueIndex(catalogue)
    .match(recall)
    .map((m) => [m.row.line, m.level, m.scope])
    .sort((a, b) => Number(a[0]) - Number(b[0]));
}
const oneRow = (notice: Record<string, unknown>, values: Record<string, string>) => judgeRows(notice, [values])[0];

const lotNotice = (code: string) => ({ product_description: `Lot ${code}.`, ...GB });
const scopeOfLot = (notice: Record<string, unknown>, cell: string) => judge(notice, { lot: cell }).scope;

describe("a GS1 code's production, packaging or sell-by date is no reading of the pack's date", () => {
  const useBy = { production_dates: 'DLC 15/04/2025', ...FR };

  it.each(['11', '13', '16'])('(%s)250110 alone proves nothing against a use-by date', (ai) => {
    expect(oneRow(useBy, { ean: `(01)0${EAN}(${ai})250110` })).toEqual([1, 'match', 'unknown']);
  });

  it.each(['11', '13', '16'])('(%s) beside an empty best-before cell: still unknown', (ai) => {
    expect(oneRow(useBy, { ean: `(01)0${EAN}(${ai})250110`, best_before: '' })).toEqual([1, 'match', 'unknown']);
  });

  it('an expiry (17) or best-before (15) date still proves the row out, and still puts it in scope', () => {
    expect(oneRow(useBy, { ean: `(01)0${EAN}(17)250110` })).toEqual([1, 'excluded', 'out-of-scope']);
    expect(oneRow(useBy, { ean: `(01)0${EAN}(15)250110` })).toEqual([1, 'excluded', 'out-of-scope']);
    expect(oneRow(useBy, { ean: `(01)0${EAN}(17)250415` })).toEqual([1, 'match', 'in-scope']);
  });

  it('the production date beside the expiry one changes nothing, read or not', () => {
    expect(oneRow(useBy, { ean: `(01)0${EAN}(11)250415(17)250110` })).toEqual([1, 'excluded', 'out-of-scope']);
    expect(oneRow(useBy, { ean: `(01)0${EAN}(11)2504(17)250110` })).toEqual([1, 'excluded', 'out-of-scope']);
    expect(oneRow(useBy, { ean: `https://id.gs1.org/01/0${EAN}?17=250110&11=250415` })).toEqual([
      1,
      'excluded',
      'out-of-scope',
    ]);
  });
});

describe('words before a colon that are no lot label are words of the cell', () => {
  it.each([
    'From: 1100',
    'Since: 1100',
    'min: 1100',
    'After: L1100',
    'Lots from: 1100',
    'between: 1100 and 1200',
    'Range: 1100 1200',
  ])('%j never proves a row out of lot L1150', (cell) => {
    expect(scopeOfLot(lotNotice('L1150'), cell)).toBe('unknown');
  });

  it.each(['Lot ID: 1100', 'Lot ref: 1100', 'Lot code:1100', 'Code lot: 1100', 'Charge-Nr.: 1100', 'Lot No.: 1100'])(
    'a label of lot words (%j) is still left off',
    (cell) => {
      expect(judge(lotNotice('L1150'), { lot: cell }).level).toBe('excluded');
      expect(scopeOfLot(lotNotice('L1100'), cell)).toBe('in-scope');
    },
  );
});

describe('a range of lettered lots with any hyphen is a range', () => {
  // U+2010 hyphen, U+2011 non-breaking hyphen, U+2012 figure dash, U+2212 minus sign.
  it.each(['L1100\u2010L1200', 'L1100\u2011L1200', 'L1100\u2012L1200', 'L1100\u2212L1200', 'L1100 \u2010 L1200'])(
    '%j never proves a row out of lot L1150',
    (cell) => {
      expect(scopeOfLot(lotNotice('L1150'), cell)).toBe('unknown');
    },
  );
});

describe("several lot columns: each is read on its own, Excel's number forms too", () => {
  const notice = { production_dates: 'Lot 12345', ...FR };

  it.each(['12,345', '12345.0', '1.2345E+04'])('lot %j beside batch X1 is lot 12345', (cell) => {
    expect(oneRow(notice, { ean: EAN, lot: cell, batch: 'X1' })).toEqual([1, 'match', 'in-scope']);
  });

  it("beside the GS1 code's lot too", () => {
    expect(oneRow(notice, { ean: `(01)0${EAN}(10)X1`, lot: '12,345' })).toEqual([1, 'match', 'in-scope']);
  });

  it('two other lots still prove the row out; a column that names no lot leaves it to verify', () => {
    expect(oneRow(notice, { ean: EAN, lot: '12,346', batch: 'X1' })).toEqual([1, 'excluded', 'out-of-scope']);
    expect(oneRow(notice, { ean: EAN, lot: '12,346', batch: 'n/a' })).toEqual([1, 'match', 'unknown']);
    expect(oneRow(notice, { ean: EAN, lot: '12346', batch: '1100 onwards' })).toEqual([1, 'match', 'unknown']);
  });
});

describe("each date column's day/month order is its own", () => {
  const notice = { production_dates: 'DLC 05/04/2025', ...FR };

  it("a column whose cells do not show the order keeps both readings, whatever another column's show", () => {
    expect(
      judgeRows(notice, [
        { ean: EAN, ddm: '13/04/2025', expiry: '' },
        { ean: EAN, ddm: '', expiry: '04/05/2025' },
      ]),
    ).toEqual([
      [1, 'excluded', 'out-of-scope'],
      [2, 'match', 'in-scope'],
    ]);
  });

  it("a column's own cells still decide its order", () => {
    expect(
      judgeRows(notice, [
        { ean: EAN, ddm: '13/04/2025', expiry: '' },
        { ean: EAN, ddm: '04/05/2025', expiry: '' },
      ]),
    ).toEqual([
      [1, 'excluded', 'out-of-scope'],
      [2, 'excluded', 'out-of-scope'],
    ]);
  });
});

describe('a single letter is a lot word only as a suffix or the EU L marker', () => {
  it.each(['1100 f', '1100 s', '1100 ff', '1100 ss', '1100 et seq', '1100 et s'])(
    '%j never proves a row out of lot L1150',
    (cell) => {
      expect(scopeOfLot(lotNotice('L1150'), cell)).toBe('unknown');
    },
  );

  it('"2104 B" is still 2104 and 2104B, and proves a row out of another lot', () => {
    expect(scopeOfLot(lotNotice('2104'), '2104 B')).toBe('in-scope');
    expect(scopeOfLot(lotNotice('2104B'), '2104 B')).toBe('in-scope');
    expect(judge(lotNotice('2105'), { lot: '2104 B' }).level).toBe('excluded');
    expect(judge(lotNotice('2105'), { lot: '2104 B, 2106 C' }).level).toBe('excluded');
  });

  it('"L 1100" is lot 1100 and proves a row out of lot L1150, as "V 031" does of lot V028', () => {
    expect(judge(lotNotice('L1150'), { lot: 'L 1100' }).level).toBe('excluded');
    expect(scopeOfLot(lotNotice('L1100'), 'L 1100')).toBe('in-scope');
    expect(judge(lotNotice('V028'), { lot: 'V 031' }).level).toBe('excluded');
    expect(judge(lotNotice('2105'), { lot: '2104 A' }).level).toBe('excluded');
  });

  it('"à 1200" (a bound) never proves a row out of lot L1150', () => {
    expect(scopeOfLot(lotNotice('L1150'), 'à 1200')).toBe('unknown');
    expect(scopeOfLot(lotNotice('L1150'), '1100 f 1200')).toBe('unknown');
  });
});
