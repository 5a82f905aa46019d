// Codes in scope text that no list label took: a date code read as the pack's lot, and codes a list left behind or the
// text writes anywhere, which a row may carry and so are never grounds to exclude it, while the list still proves other
// lots out.
import { describe, expect, it } from 'vitest';
import { DE, judge, US } from '../helpers/scope-judge.js';

const BURRITO =
  '•\t7-oz. individual wax paper packages containing “DON MIGUEL Hand Made BURRITO CARNE ASADA” with date code D23270 printed on the package.';
const BURRITO_ES =
  'Empaques individuales de 7 onzas embalados en papel encerado que contienen "BURRITOS DE CARNE ASADA DON MIGUEL hechos a mano" con código de fecha D23270 impreso en el empaque.';
// Sulu Organics (FSIS, 2025): lots per pack size, one of them written without its "LOT:".
const TALLOW =
  '4-lb. \u00a0buckets of “Sulu TREAT YOUR SOUL TALLOW RENDERED 100% PURE GRASS FEED GRASS FINISHED” with “LOT: 08012024-7895 EXP: 07/2026,” “07192023-4502 EXP: 12/2024” and “LOT: 080124-7895 EXP 01/2026” represented on the container label., 1.5-lb. jars of “Sulu TREAT YOUR SOUL BEEF TALLOW RENDERED 100% PURE GRASS FEED GRASS FINISHED” with “LOT: 021925-0044 EXP:09/2026,” “LOT: 012224-0960 EXP: 01/2026” represented on the container label.';

/** A notice whose lot list names `listed`: that lot is in scope, `other` is proved out by the lot, quoting `quoted`. */
function namesOnly(notice: Record<string, unknown>, listed: string, other: string, quoted: string) {
  const named = judge(notice, { lot: listed });
  expect([named.level, named.scope]).toEqual(['match', 'in-scope']);
  const out = judge(notice, { lot: other });
  expect([out.level, out.scope, out.excludedOn]).toEqual(['excluded', 'out-of-scope', 'lot']);
  expect(out.scopeEvidence).toContain(quoted);
}

describe('a date code that is no date is the pack’s lot (FSIS, Don Miguel Foods, 047-2023)', () => {
  it.each([
    ['English', BURRITO],
    ['Spanish', BURRITO_ES],
  ])('%s: the code named is in scope, another code of its form is proved out', (_, text) => {
    namesOnly({ production_dates: text, ...US }, 'D23270', 'D23285', 'D23270');
  });

  it('a date after "date code" is still a date, and a year is no code', () => {
    const dated = judge(
      { production_dates: 'with date code 10/13/2023 printed on the package', ...US },
      { lot: 'D23285' },
    );
    expect(dated.scope).not.toBe('out-of-scope');
    const year = judge({ production_dates: 'with date code 2023 printed on the package', ...US }, { lot: 'D23285' });
    expect(year.level).not.toBe('excluded');
  });
});

describe('a code after a list, without a label, may be one of its lots', () => {
  it('Sulu: a row with the unlabelled lot is not excluded; a lot named nowhere is', () => {
    const unlabelled = judge({ production_dates: TALLOW, ...US }, { lot: '07192023-4502', bb: '12/31/2024' });
    expect(unlabelled.level).not.toBe('excluded');
    const nowhere = judge({ production_dates: TALLOW, ...US }, { lot: '031825-0102', bb: '10/31/2026' });
    expect([nowhere.level, nowhere.scope]).toEqual(['excluded', 'out-of-scope']);
  });

  it('a code that may open a range after the list leaves the scope unread', () => {
    const m = judge({ product_description: 'Lots 1234 and 1235 (carton) 1236 - 1240', ...US }, { lot: '1238' });
    expect([m.level, m.scope]).toEqual(['match', 'unknown']);
    expect(m.scopeEvidence).toContain("the notice's scope was not read whole");
  });

  it('digits after a date list may be a date written as digits: unread, so no date is proved out', () => {
    const m = judge({ product_description: 'EXP 12/2025 (case) 0126', ...US }, { bb: '01/31/2026' });
    expect([m.level, m.scope]).toEqual(['match', 'unknown']);
  });

  it('a lot that reads as a quantity, left behind by the list, is never grounds to exclude its row', () => {
    // After "charge" (German: batch) 45549A reads as 45549 amperes, so the list stops before it.
    for (const text of ['Charge A69196B, 45549A', 'Charge A69196B, 8509B, 45549A, V33059 und LB63111A']) {
      const m = judge(
        { product_description: `Das Produkt wurde bundesweit verkauft. ${text}`, ...DE },
        { lot: '45549A' },
      );
      expect([m.level, m.scope]).toEqual(['match', 'unknown']);
      expect(m.scopeEvidence).toContain('45549A');
    }
    const other = judge({ product_description: 'Charge A69196B, 45549A', ...DE }, { lot: 'B11111C' });
    expect([other.level, other.scope]).toEqual(['excluded', 'out-of-scope']);
  });

  it('whatever the reader made of it, a lot the notice writes anywhere in its scope text is never grounds to exclude', () => {
    // A quantity, a year and a barcode-length number next to a lot list: none is read as a lot, each may be one.
    for (const [text, lot] of [
      ['Lot 1234, 25KG', '25KG'],
      ['Lot 1234. Produced in 2025.', '2025'],
      ['Lots 1234 and 1235; carton 40012345678905', '40012345678905'],
    ]) {
      const m = judge({ product_description: text, ...US }, { lot });
      expect([text, m.level, m.scope]).toEqual([text, 'match', 'unknown']);
    }
    // Kept quietly: --explain lists the lots the reader read, not every number the text writes.
    const m = judge({ product_description: 'Lot 1234, 25KG', ...US }, { lot: '9999' });
    expect([m.level, m.scope]).toEqual(['excluded', 'out-of-scope']);
    expect(m.explain).toContain('scope read: lot 1234;');
  });
});

describe('labels a hyphen joins into one word, and a code with a letter after a date code', () => {
  it.each([
    'Los-Nr. 8078A, 52423S, L62013A und L42284. Das Produkt wurde bundesweit verkauft.',
    'Chargen-Nr.: 8078A, 52423S, L62013A und L42284',
    'Lot-Nr. 8078A, 52423S, L62013A und L42284',
  ])('"%s" lists lots: a listed lot is in scope, another proved out', (text) => {
    namesOnly({ product_description: text, ...DE }, '8078A', 'Z98500', '8078A, 52423S, L62013A und L42284');
  });

  it('a label as a Swiss dairy prints it: "Los-Nr.: 1004550391 MHD: 01.05.27"', () => {
    const text = 'Los-Nr.: 1004550391 MHD: 01.05.27';
    namesOnly({ production_dates: text, ...DE }, '1004550391', '1004550392', 'Los-Nr.: 1004550391');
    // Its best-before date is 1 May 2027, read day first.
    expect(judge({ production_dates: text, ...DE }, { bb: '2027-05-01' }).scope).toBe('in-scope');
    expect(judge({ production_dates: text, ...DE }, { bb: '2027-01-05' }).level).toBe('excluded');
  });

  it('"con código de fecha 41441A" names a lot, not 41441 amperes', () => {
    const text = 'con código de fecha 41441A impreso en el empaque';
    namesOnly({ production_dates: text, ...US }, '41441A', '41442A', '41441A');
  });
});
