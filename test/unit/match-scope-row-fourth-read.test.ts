// A fourth read of the catalogue side of the scope check: lot cells a spreadsheet changed past reading (scientific
// form with digits dropped, 15 digits and zeros, a lot turned into a month), wildcards, ranges across a power of ten,
// labels written against the number, and a year-first date with one-digit parts: none proves the row out.
import { describe, expect, it } from 'vitest';
import { FR, GB, judge } from '../helpers/scope-judge.js';

const lotNotice = (code: string) => ({ product_description: `Lot ${code}.`, ...GB });
const scopeOfLot = (code: string, cell: string) => judge(lotNotice(code), { lot: cell }).scope;

describe('lot cells that cannot prove a row out', () => {
  it.each([
    ['123456789012', '1.23457E+11'],
    ['123456789012', '1,23457E+11'],
    ['25E10', '2.50E+11'],
    ['1234567890123456789', '1234567890123450000'],
    ['05-25', 'May-25'],
    ['2104-03', 'Mar-04'],
    // The same, in the file's language: German, French, Spanish, Dutch and Italian spreadsheets' month abbreviations.
    ['05-25', 'Mai-25'],
    ['05-25', 'mai-25'],
    ['03-25', 'Mrz-25'],
    ['03-25', 'mrt-25'],
    ['07-25', 'juil.-25'],
    ['08-25', 'août-25'],
    ['12-25', 'dic-25'],
    ['10-25', 'ott-25'],
    ['25-05', '25. Mai'],
    ['25-05', '25-mei'],
    ['05-2025', 'Mai 2025'],
    ['03-25', 'maart-25'],
    ['1000', '998-1002'],
    ['100', '98-102'],
    ['9999', '9998-10001'],
    ['1150', '11XX'],
    ['1150', 'L11xx'],
  ])('notice lot %s, row cell "%s": not out of scope', (code, cell) => {
    expect(scopeOfLot(code, cell)).not.toBe('out-of-scope');
  });

  it.each([
    ['1150', 'Ch.1150'],
    ['1150', 'Ch1150'],
    ['1150', 'Lotto1150'],
  ])('notice lot %s, row cell "%s" (a label against the number): in scope', (code, cell) => {
    expect(scopeOfLot(code, cell)).toBe('in-scope');
  });

  it.each([
    ['9999', '1.2345E+04'],
    ['9999', '12345678901234567'],
    ['9999', '1150'],
    ['9999', 'Ch1150'],
    ['9999', 'MAX-25'],
    ['9999', 'L25-05'],
    // Codes that start like a month: still read as codes.
    ['9999', 'MAIN-12'],
    ['9999', 'NOVA.2023'],
  ])('still proves: notice lot %s, row cell "%s" is out', (code, cell) => {
    expect(scopeOfLot(code, cell)).toBe('out-of-scope');
  });
});

describe('a date cell read year first with one-digit parts', () => {
  it('"25/6/15" may be 15 June 2025: not out of a notice naming it', () => {
    const notice = { production_dates: 'DLC 15/06/2025', ...FR };
    expect(judge(notice, { bb: '25/6/15' }).scope).not.toBe('out-of-scope');
    // A cell of another day, either way read, is still out.
    expect(judge(notice, { bb: '26/7/16' }).scope).toBe('out-of-scope');
  });
});

describe("a row's lot that is a part of the notice's", () => {
  it.each([
    ['2104-B', '2104'],
    ['2104B', '2104'],
    ['2024-1150', '1150'],
    ['L2104.03', 'L2104'],
  ])('notice lot %s, row lot "%s": not out of scope (the export may keep only that part)', (code, cell) => {
    expect(scopeOfLot(code, cell)).not.toBe('out-of-scope');
  });

  it.each([
    ['2105-B', '2104'],
    ['2024-1150', '1151'],
    ['2104B', '2105'],
  ])('another lot still proves: notice lot %s, row lot "%s" is out', (code, cell) => {
    expect(scopeOfLot(code, cell)).toBe('out-of-scope');
  });
});
