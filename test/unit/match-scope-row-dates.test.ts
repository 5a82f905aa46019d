// A catalogue row's dates as the scope check reads them: a date cell is proof only when it holds nothing but dates the
// reader knows (a bound, a span or an unknown word makes it unprovable), and every GS1 date and every date column is a
// reading of the row (out only if all of them are). The notice side: match-scope-never-out.test.ts.
import { describe, expect, it } from 'vitest';
import { rowBatch, rowCodes } from '../../src/match/catalogue-batch.js';
import { resolveColumns } from '../../src/match/catalogue-columns.js';
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { cellDates } from '../../src/match/scope-dates.js';
import { EAN, FR, judge } from '../helpers/scope-judge.js';

const DLC20 = { production_dates: 'DLC 20/06/2025', ...FR };

describe('a date cell with a bound or a span', () => {
  it.each([
    '15/06/2025 or later',
    'since 15/06/2025',
    '15/06/2025 onwards',
    '15/06/2025 and later',
    '15.06.2025 oder später',
    '15/06/2025 y posteriores',
    'at least 15/06/2025',
    '15/06/2025...25/06/2025',
    '15/06/2025…25/06/2025',
    '15/06/2025..25/06/2025',
    '15/06/2025+',
    '≥15/06/2025',
    'from 15/06/2025',
    '15/06/2025 (approx.)',
    'fabriqué le 15/06/2025',
  ])('"%s" holding the notice\'s DLC is never excluded: a date to verify', (bb) => {
    expect(cellDates(bb, 'day-first')).toEqual([]);
    const m = judge(DLC20, { bb });
    expect([m.level, m.scope]).toEqual(['match', 'unknown']);
  });

  it.each([
    ['15/06/2025', '2025-06-15'],
    ['DLC 15/06/2025', '2025-06-15'],
    ['DLC : 15/06/2025', '2025-06-15'],
    ['MHD 15.06.2025', '2025-06-15'],
    ['best before 15/06/2025', '2025-06-15'],
    ['2025-06-15 00:00:00', '2025-06-15'],
    ['15 juin 2025', '2025-06-15'],
    ["'15/06/2025", '2025-06-15'],
  ])('"%s", a date alone or after a pack date\'s label, still proves the row out', (bb, day) => {
    expect(cellDates(bb, 'day-first')).toEqual([{ from: day, to: day }]);
    const m = judge(DLC20, { bb });
    expect([m.level, m.scope]).toEqual(['excluded', 'out-of-scope']);
  });

  it('dates listed with a comma or "et" are each a reading: out only if every one is', () => {
    expect(judge(DLC20, { bb: '15/06/2025 et 20/06/2025' }).scope).toBe('in-scope');
    expect(judge(DLC20, { bb: '15/06/2025, 25/06/2025' }).level).toBe('excluded');
  });
});

/** One row holding EAN's code (as a GS1 element string when given one) and the cells given, judged against a notice. */
function judgeRow(notice: Record<string, unknown>, values: Record<string, string>) {
  const headers = Object.keys(values);
  const catalogue: Catalogue = {
    file: 'c.csv',
    headers,
    columns: resolveColumns(headers, {}),
    rows: [{ line: 1, values }],
    repeated: [],
  };
  const recall = { standard_identifiers_and_barcodes: [{ type: 'EAN', value: EAN }], ...notice };
  const [m] = new CatalogueIndex(catalogue).match(recall, { explain: true });
  if (!m) throw new Error('the row did not match the notice at all');
  return m;
}

describe('GS1 dates in the barcode cell', () => {
  const DLC_15_04 = { production_dates: 'DLC 15/04/2025', ...FR };

  it('day 00 is the whole month: (17)250400 holds 15 April, so the row is in scope', () => {
    const m = judgeRow(DLC_15_04, { ean: `(01)0${EAN}(17)250400` });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
    expect(m.explain).toContain('2025-04-01 to 2025-04-30');
    expect(judgeRow(DLC_15_04, { ean: `(01)0${EAN}(17)250500` }).level).toBe('excluded');
  });

  it('every date the code carries is a reading: (15) 1 April and (17) 15 April is in scope', () => {
    const m = judgeRow(DLC_15_04, { ean: `(01)0${EAN}(15)250401(17)250415` });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
    expect(judgeRow(DLC_15_04, { ean: `(01)0${EAN}(15)250401(17)250420` }).level).toBe('excluded');
  });

  it("a date element that is no date, or a date column beside the code, is read with the code's dates", () => {
    const bad = judgeRow(DLC_15_04, { ean: `(01)0${EAN}(15)250401(17)2504` });
    expect([bad.level, bad.scope]).toEqual(['match', 'unknown']);
    const both = judgeRow(DLC_15_04, { ean: `(01)0${EAN}(17)250415`, best_before: '01/05/2025' });
    expect(both.scope).toBe('in-scope');
  });

  it("the code's lot is read beside the lot column: the row is each of them", () => {
    const m = judgeRow({ production_dates: 'Lot 5678', ...FR }, { ean: `(01)0${EAN}(10)5678`, lot: '1234' });
    expect(m.scope).toBe('in-scope');
  });
});

describe('two date columns', () => {
  const batchOf = (values: Record<string, string>) => {
    const headers = ['ean', ...Object.keys(values)];
    const catalogue = { columns: resolveColumns(headers, {}) };
    const row = { line: 1, values: { ean: EAN, ...values } };
    return rowBatch(catalogue, row, rowCodes(catalogue, row).gs1, 'day-first');
  };

  it('each cell is a reading; one that cannot be read leaves the row no date to prove with', () => {
    expect(batchOf({ ddm: '01/12/2025', dlc: '15/06/2025' }).dates).toEqual([
      { from: '2025-12-01', to: '2025-12-01' },
      { from: '2025-06-15', to: '2025-06-15' },
    ]);
    expect(batchOf({ ddm: '01/12/2025', dlc: '' }).dates).toEqual([{ from: '2025-12-01', to: '2025-12-01' }]);
    expect(batchOf({ ddm: '01/12/2025', dlc: '15/06/2025 or later' }).dates).toBeUndefined();
  });
});
