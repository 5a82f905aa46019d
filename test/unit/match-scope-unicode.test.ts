// Notices and catalogue cells that differ from plain ASCII English only in script or language (a review's findings):
// a lot or date the notice names is never grounds to exclude the row; the same notice in ASCII still proves.
import { describe, expect, it } from 'vitest';
import { DE, FR, GB, judge } from '../helpers/scope-judge.js';

const JP = { geo_jurisdictions: ['JP'] };
const text = (t: string, geo: Record<string, unknown> = FR) => ({ production_dates: t, ...geo });
type Case = [string, Record<string, unknown>, { lot?: string; bb?: string }];

describe('Chinese and Japanese words right beside a lot', () => {
  it.each<Case>([
    ['"5678のみ" (5678 only): 5678', text('Lot 5678のみ', JP), { lot: '5678' }],
    ['"1234から1240" (1234 to 1240): 1234', text('Lot 1234から1240', JP), { lot: '1234' }],
    ['"1234至1240": 1234', text('Lot 1234至1240', JP), { lot: '1234' }],
  ])('%s is in scope', (_, notice, row) => {
    expect(judge(notice, row).scope).toBe('in-scope');
  });

  it.each<Case>([
    ['"1234から1240": 1237', text('Lot 1234から1240', JP), { lot: '1237' }],
    ['"1234から1240": 1240', text('Lot 1234から1240', JP), { lot: '1240' }],
    ['"1234至1240": 1237', text('Lot 1234至1240', JP), { lot: '1237' }],
    ['"1234 から 1240": 1237', text('Lot 1234 から 1240', JP), { lot: '1237' }],
    ['"1234 至 1240": 1237', text('Lot 1234 至 1240', JP), { lot: '1237' }],
  ])('%s is not excluded', (_, notice, row) => {
    expect(judge(notice, row).level).not.toBe('excluded');
  });
});

describe("every script's digits", () => {
  it.each<Case>([
    ['Arabic-Indic, in the middle of a list', text('Lots L11111, L١٢٣٤٥, L22222'), { lot: 'L12345' }],
    ['Arabic-Indic, last in a list', text('Lots L11111, L22222, L١٢٣٤٥'), { lot: 'L12345' }],
    ['Persian', text('Lots L11111, L۱۲۳۴۵, L22222'), { lot: 'L12345' }],
    ['Devanagari', text('Lots L11111, L१२३४५, L22222'), { lot: 'L12345' }],
    ['Thai', text('Lots L11111, L๑๒๓๔๕, L22222'), { lot: 'L12345' }],
    ['in the catalogue cell: Arabic-Indic', text('Lot L12345'), { lot: 'L١٢٣٤٥' }],
    ['in the catalogue cell: Devanagari', text('Lot L12345'), { lot: 'L१२३४५' }],
  ])('%s: the listed lot is in scope', (_, notice, row) => {
    expect(judge(notice, row).scope).toBe('in-scope');
  });

  it.each<Case>([
    ['superscript digits in a list', text('Lots L11111, L¹²³⁴⁵, L22222'), { lot: 'L12345' }],
    ['mathematical digits in a list', text('Lots L11111, L𝟏𝟐𝟑𝟒𝟓, L22222'), { lot: 'L12345' }],
    ['a year in Arabic-Indic digits after a date label', text('Lot 1234, DDM ٢٠٢٥'), { lot: '9999', bb: '2025-06-01' }],
  ])('%s: not excluded', (_, notice, row) => {
    expect(judge(notice, row).level).not.toBe('excluded');
  });

  it('an expiry date in Arabic-Indic digits is read: the row of that date is in scope', () => {
    const m = judge(text('Lot 1234, Expiry ١٢/٠٣/٢٠٢٦'), { lot: '9999', bb: '12/03/2026' });
    expect(m.scope).toBe('in-scope');
  });
});

describe('a lot range in a language the reader has no words for', () => {
  it.each<[string, string]>([
    ['Dutch', 'Lot 1234 tot 1240'],
    ['Dutch, "tot en met"', 'Lot 1234 tot en met 1240'],
    ['Polish', 'Lot 1234 do 1240'],
    ['Portuguese', 'Lote 1234 até 1240'],
    ['Danish', 'Batch 1234 til 1240'],
    ['Czech', 'Lot 1234 až 1240'],
    ['Russian', 'Lot 1234 до 1240'],
    ['Greek', 'Lot 1234 έως 1240'],
    ['Romanian', 'Lot 1234 până la 1240'],
    ['Turkish', 'Lot 1234 ile 1240 arası'],
    ['Portuguese "ao"', 'Lote 1234 ao 1240'],
    ['Indonesian "hingga"', 'Lot 1234 hingga 1240'],
    ['Malay "sampai"', 'Lot 1234 sampai 1240'],
    ['Hungarian endings', 'Lot 1234-től 1240-ig'],
    ['Turkish endings', "Lot 1234'ten 1240'a kadar"],
  ])('%s (%s): a lot inside is not excluded', (_, words) => {
    expect(judge(text(words), { lot: '1237' }).level).not.toBe('excluded');
  });
});

describe('pack dates in forms the reader did not read', () => {
  it.each<[string, string]>([
    ['Japanese, year 年 month 月 day 日', 'Lot 1234 賞味期限 2026年3月12日'],
    ['Japanese, year first with dots', 'LOT 1234 賞味期限 2026.03.12'],
    ['Chinese, a word right before the date', 'Lot 1234 保质期至2026年3月12日'],
    ['Arabic, Arabic-Indic digits', 'Lot 1234 تاريخ الانتهاء ١٢/٠٣/٢٠٢٦'],
    ['Dutch "mrt"', 'Lot 1234, THT 12 mrt 2026'],
  ])('%s: a row of another lot dated that day is not excluded (its date to verify)', (_, words) => {
    const m = judge(text(words), { lot: '9999', bb: '2026-03-12' });
    expect([m.level, m.scope]).toEqual(['match', 'unknown']);
  });

  it('"26.03.12" is read year first too: a row dated 2026-03-12 is in scope', () => {
    expect(judge(text('Batch 1234, Best before 26.03.12', DE), { lot: '9999', bb: '2026-03-12' }).scope).toBe(
      'in-scope',
    );
  });
});

describe('what is read whole still proves', () => {
  it.each<Case>([
    ['a plain list', text('Lots L11111, L12345, L22222'), { lot: 'L33333' }],
    ['the same list in Arabic-Indic digits', text('Lots L11111, L١٢٣٤٥, L22222'), { lot: 'L33333' }],
    ['a range in German', text('Charge 1234 bis 1240', DE), { lot: '1250' }],
    ['a lot and a Japanese particle', text('Lot 5678のみ', JP), { lot: '5679' }],
    [
      'a German best-before "04.04.21" (never 2004)',
      text('Lot 1234, MHD 04.04.21', DE),
      { lot: '9999', bb: '2004-04-21' },
    ],
    ['a date with a year', text('Lot 1234, DLC 12/03/2026', GB), { lot: '9999', bb: '2026-03-13' }],
  ])('%s: a row outside it is excluded', (_, notice, row) => {
    expect(judge(notice, row).level).toBe('excluded');
  });
});

describe("a second read's findings: what the changes above must not do", () => {
  const ES = { geo_jurisdictions: ['ES'] };
  it.each<Case>([
    ['a German two-digit-year range, a row after it', text('MHD 01.06.25 - 30.06.25', DE), { bb: '2025-07-15' }],
    ['the same, a row a year on', text('MHD 01.06.25 - 30.06.25', DE), { bb: '2026-01-15' }],
    ['an English one', text('Best before 01/06/25 - 30/06/25', GB), { bb: '2027-03-01' }],
    ['Spanish "dic"', text('Fecha de caducidad 15-DIC-2025', ES), { bb: '2025-12-16' }],
    ['a lot list, then an English word and a number', text('Lot no. 12 line 3', GB), { lot: '13' }],
    ['"size 10" after a lot', text('Lot 1234 size 10', GB), { lot: '1240' }],
    ['"from store 26" after a lot', text('Lot 1234 from store 26', GB), { lot: '1240' }],
  ])('%s: excluded', (_, notice, row) => {
    expect(judge(notice, row).level).toBe('excluded');
  });

  it.each<Case>([
    ['Spanish "dic": the day named', text('Fecha de caducidad 15-DIC-2025', ES), { bb: '2025-12-15' }],
    ['a dotted lot is a lot, not a date', text('Lot 1234.05.06', GB), { lot: '1234.05.06' }],
    ['another dotted lot', text('Lot 2104.10.3', GB), { lot: '2104.10.3' }],
  ])('%s: in scope', (_, notice, row) => {
    expect(judge(notice, row).scope).toBe('in-scope');
  });

  // The CLI's stack overflowed on it (its items were spread into one call); a test worker's stack is larger and did not,
  // so this holds what the reading gives, not the overflow: that is the loop in recallScope.
  it('a field of 160,000 lots each beside a Japanese word is read, and names the lot', () => {
    const notice = text(`Lot ${'1234から'.repeat(160_000)}`, JP);
    expect(judge(notice, { lot: '1234' }).level).not.toBe('excluded');
  });
});
