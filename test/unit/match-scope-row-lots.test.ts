// A catalogue row's lot cell as shops write it: other dashes, several lots with quotes, brackets or bullets between
// them, a suffix after a dash or dot, a bound or a span. Never grounds to exclude a row the notice may cover (a review
// of the catalogue side); a plainly written other lot still proves the row out.
import { describe, expect, it } from 'vitest';
import { cellText } from '../../src/match/catalogue.js';
import { GB, judge } from '../helpers/scope-judge.js';

const lot = (code: string) => ({ product_description: `Lot ${code}.`, ...GB });
const scopeOf = (notice: Record<string, unknown>, cell: string) => judge(notice, { lot: cell }).scope;

describe('a lot written with another dash is the same lot', () => {
  // U+2010 hyphen, U+2011 non-breaking hyphen, U+2012 figure dash, U+2212 minus sign, U+2043 hyphen bullet.
  it.each(['2025\u2010001', '2025\u2011001', '2025\u2012001', '2025\u2212001', '2025\u2043001'])('%j', (cell) => {
    expect(scopeOf(lot('2025-001'), cell)).toBe('in-scope');
  });

  it('and another lot so written is still out', () => {
    expect(judge(lot('2025-001'), { lot: '2025\u2011002' }).level).toBe('excluded');
    expect(judge(lot('2025-001'), { lot: '2025\u2212002' }).level).toBe('excluded');
  });
});

describe('a cell of several lots is each of them, whatever stands between them', () => {
  it.each([
    '"1234", "1235"',
    '1234 (1235)',
    '1234•1235',
    '1234·1235',
    '1234、1235',
    '1234\\1235',
    '1234:1235',
    '["1234","1235"]',
    '1234 + 1235',
    '«1234» «1235»',
  ])('%j holds lot 1235', (cell) => {
    expect(scopeOf(lot('1235'), cell)).toBe('in-scope');
  });

  it.each(['"1234", "1236"', '1234 (1236)', '1234•1236', '1234 + 1236', '1234、1236'])(
    '%j, neither lot 1235, is out',
    (cell) => {
      expect(judge(lot('1235'), { lot: cell }).level).toBe('excluded');
    },
  );
});

describe('a code with a part after a dash, dot or underscore is also its head, as one after a space is', () => {
  it.each(['2104-B', '2104.B', '2104_B', '2104 B', '2104/B', '2104-01', 'L2104-1', '2104\u2011B'])(
    '%j holds lot 2104',
    (cell) => {
      expect(scopeOf(lot('2104'), cell)).toBe('in-scope');
    },
  );

  it('within a range of lots too', () => {
    expect(scopeOf({ product_description: 'Lots 1000 to 1200.', ...GB }, '1100-A')).toBe('in-scope');
  });

  it.each(['2105-B', '2105.B', 'L2105-1'])('%j is still out of lot 2104', (cell) => {
    expect(judge(lot('2104'), { lot: cell }).level).toBe('excluded');
  });
});

describe('a lot cell giving a bound or a span is no lot to prove with', () => {
  it.each([
    '1100+',
    '+1100',
    'between 1100 and 1200',
    '1100 up to 1200',
    '1100...1200',
    '1100…1200',
    '1100 onwards',
    '1100 and later',
    'from 1100',
    '≥1100',
    '>= 1100',
    '<1200',
    '1100 until 1200',
    '1100 till 1200',
    "1100 jusqu'à 1200",
    '1100 jusqu’à 1200',
    '1100 y posteriores',
    '1100 to 1200',
    '1100 – 1200',
    '1200 - 1100',
    '1100 bis 1200',
    '1100*',
    '1100 exp 07/2026',
    '≈123456789012345680',
  ])('%j against lot 1150: unknown, never excluded', (cell) => {
    const m = judge(lot('1150'), { lot: cell });
    expect(m.level).not.toBe('excluded');
    expect(m.scope).toBe('unknown');
  });

  it('while a cell of labels, codes and joins alone still proves', () => {
    for (const cell of ['Lot 1100', 'LOT:1100', 'Lots 1100 and 1200', 'L1100 / L1200', 'Lot n°1100', 'Lot ref: 1100'])
      expect(judge(lot('1150'), { lot: cell }).level, cell).toBe('excluded');
  });
});

describe('a JSON value as a cell', () => {
  it('a list of plain values is each of them', () => {
    expect(cellText(['1234', '1235'])).toBe('1234, 1235');
    expect(cellText([1234, 'L1235'])).toBe('1234, L1235');
    expect(cellText([])).toBe('');
  });

  it('a list holding objects, or an object, stays JSON', () => {
    expect(cellText([{ lot: '1234' }])).toBe('[{"lot":"1234"}]');
    expect(cellText({ from: 1100, to: 1200 })).toBe('{"from":1100,"to":1200}');
  });

  it('a number JSON.parse may have rounded is marked, a safe one is its digits', () => {
    expect(cellText(JSON.parse('123456789012345678'))).toBe('≈123456789012345680');
    expect(cellText(JSON.parse('1e21'))).toBe('≈1e+21');
    expect(cellText(JSON.parse('9007199254740991'))).toBe('9007199254740991');
    expect(cellText(JSON.parse('12345'))).toBe('12345');
    expect(cellText(JSON.parse('12.5'))).toBe('12.5');
  });
});
