// A third read of the catalogue side of the scope check: lot cells that name a range in ways the earlier rules read as
// a list (a one-letter range word beside a marker written apart, codes that end in a letter, the Dutch "t/m") leave the
// row a match to verify; a list of the same codes still proves.
import { describe, expect, it } from 'vitest';
import { GB, judge } from '../helpers/scope-judge.js';

const notice = (code: string) => ({ product_description: `Lot ${code}.`, ...GB });
const scopeOf = (code: string, cell: string) => judge(notice(code), { lot: cell }).scope;

describe('a range the lot cell names, however written, never proves the row out', () => {
  it.each([
    ['L 1100 a L 1200', 'L1150'],
    ['L 1100 à L 1200', 'L1150'],
    ['L1100 a L 1200', 'L1150'],
    ['V 1100 a V 1200', 'V1150'],
    ['1100 a 1200', '1150'],
    ['1100a–1200a', '1150A'],
    ['1100A-1200A', '1150A'],
    ['1100A-1250B', '1150A'],
    ['1100 t/m 1200', '1150'],
    ['L1100 t/m L1200', 'L1150'],
    ['1100 tem 1200', '1150'],
  ])('"%s" against lot %s: not out of scope', (cell, code) => {
    expect(scopeOf(code, cell)).not.toBe('out-of-scope');
  });

  it.each([
    ['L 1100 L 1200', 'L1150'],
    ['1100 L 1200', '1150'],
    ['2104 B', '9999'],
    ['1100A, 1200A', '1150A'],
  ])('a list of the same codes still proves: "%s" against lot %s is out', (cell, code) => {
    expect(scopeOf(code, cell)).toBe('out-of-scope');
  });
});
