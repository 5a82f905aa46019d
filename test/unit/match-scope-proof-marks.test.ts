// `excluded` only when the scope was read whole: identifier lines, dashes of every kind, signs the tokens leave out,
// labelled lot cells and European dates on a US notice (review of the scope parser, defects 1, 2, 7, 9 and 10).
// Each expected scope is read off the notice's words: a row inside them is never excluded, one outside a list read whole
// still is.
import { describe, expect, it } from 'vitest';
import { DE, FR, GB, judge, US } from '../helpers/scope-judge.js';

const NUTELLA = '3017620422003';
const ids = (line: string) => ({ standard_identifiers_and_barcodes: [line], ...FR });
/** Inside the notice's scope by its words: never excluded; in scope when the reader reads it, else a match to verify. */
function inside(m: ReturnType<typeof judge>) {
  expect(m.level).toBe('match');
  expect(['in-scope', 'unknown']).toContain(m.scope);
}

describe('an identifier line: the code after the barcode goes through the checks of a labelled list (defect 1)', () => {
  const LINE = '3564709006031$L555-L560$Date limite de consommation$16/06/2025';

  it('RappelConso\'s "GTIN$L555-L560$DLC$date": lots L555 to L560, so L557 is in scope and L561 is not', () => {
    const m = judge(ids(LINE), { lot: 'L557' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
    expect(m.explain).toContain('lots l555 to l560');
    const out = judge(ids(LINE), { lot: 'L561' });
    expect([out.level, out.scope]).toEqual(['excluded', 'out-of-scope']);
  });

  it('"555-560" after the barcode is a range holding 557', () => {
    const m = judge(ids(`${NUTELLA} 555-560`), { lot: '557', ean: NUTELLA });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it.each([
    [`${NUTELLA} L555 et suivants`, 'L557'],
    [`${NUTELLA} 555 jusqu'à 560`, '557'],
    [`${NUTELLA} 555 > 560`, '557'],
    [`${NUTELLA} L555-560`, 'L557'],
  ])('"%s" covers lot %s: never excluded', (line, lot) => {
    inside(judge(ids(line), { lot, ean: NUTELLA }));
  });
});

describe('every dash is a dash (defect 2)', () => {
  const DASHES = [
    ['U+2010 hyphen', '\u2010'],
    ['U+2011 non-breaking hyphen', '\u2011'],
    ['U+2012 figure dash', '\u2012'],
    ['U+2015 horizontal bar', '\u2015'],
    ['U+2212 minus sign', '\u2212'],
    ['U+FE58 small em dash', '\uFE58'],
    ['U+FE63 small hyphen-minus', '\uFE63'],
    ['U+FF0D full-width hyphen-minus', '\uFF0D'],
    ['U+301C wave dash', '\u301C'],
    ['U+FF5E full-width tilde', '\uFF5E'],
  ];

  it.each(DASHES)('"Lots 1234 %s 1240" and "Lots 1234%s1240" hold lot 1238, not lot 1250', (_, dash) => {
    for (const text of [`Lots 1234 ${dash} 1240`, `Lots 1234${dash}1240`]) {
      const m = judge({ production_dates: text, ...FR }, { lot: '1238' });
      expect([m.level, m.scope], text).toEqual(['match', 'in-scope']);
      expect(judge({ production_dates: text, ...FR }, { lot: '1250' }).level, text).toBe('excluded');
    }
  });

  it('the reviewer\'s "Lots 1234 − 1240" (U+2212): lot 1238 is in scope', () => {
    const m = judge({ production_dates: 'Lots 1234 − 1240', ...FR }, { lot: '1238' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('"Lot codes L1234‑L1240" (U+2011): lot L1238 is in scope', () => {
    const m = judge({ production_dates: 'Lot codes L1234‑L1240', ...FR }, { lot: 'L1238' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('"Best before 01/07/2025 ‐ 15/07/2025" (U+2010): 10/07/2025 is in scope, 20/07/2025 is not', () => {
    const text = { production_dates: 'Best before 01/07/2025 ‐ 15/07/2025', ...FR };
    const m = judge(text, { bb: '10/07/2025' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
    expect(judge(text, { bb: '20/07/2025' }).level).toBe('excluded');
  });
});

describe('a sign the tokens leave out beside a code or a date leaves the field unread (defect 7)', () => {
  it.each([
    ['Best before: ≤ 30.06.2025', '2025-06-01'],
    ['Best before: < 30.06.2025', '2025-06-01'],
    ['Best before: > 30.06.2025', '2025-07-01'],
    ['Best before: ≥ 30.06.2025', '2025-07-01'],
  ])('"%s" covers %s: never excluded', (text, bb) => {
    const m = judge({ production_dates: text, ...FR }, { bb });
    inside(m);
    expect(m.scopeEvidence).toMatch(/^verify lot\/date, the notice's scope was not read whole: /);
  });

  it.each([
    ['Lots 1234 ⇒ 1240', '1238'],
    ['Lots 1234 ∼ 1240', '1238'],
    ['Lots 1234 ≫ 1240', '1238'],
  ])('"%s", an unknown sign between two codes, covers lot %s: never excluded', (text, lot) => {
    inside(judge({ production_dates: text, ...US }, { lot }));
  });

  it('punctuation that carries no scope keeps the proof: quotes, a slash between lots, "!"', () => {
    const text = { production_dates: 'Lots “1234”, «1235» / 1236!', ...FR };
    expect(judge(text, { lot: '1235' }).scope).toBe('in-scope');
    expect(judge(text, { lot: '1236' }).scope).toBe('in-scope');
    const out = judge(text, { lot: '1299' });
    expect([out.level, out.scope]).toEqual(['excluded', 'out-of-scope']);
  });

  it('"Lot № 1234": the sign is a label, so lot 1299 is still proved out', () => {
    expect(judge({ production_dates: 'Lot № 1234', ...FR }, { lot: '1234' }).scope).toBe('in-scope');
    expect(judge({ production_dates: 'Lot № 1234', ...FR }, { lot: '1299' }).level).toBe('excluded');
  });
});

describe("a lot cell with its label and no space is the notice's lot (defect 9)", () => {
  it.each(['LOT:1234', 'Batch:1234', 'Lot n°1234', 'Lot-Nr.:1234'])('notice "Lot 1234", cell "%s": in scope', (lot) => {
    const m = judge({ production_dates: 'Lot 1234', ...US }, { lot });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('the forms read before still are ("LOT: 1234", "№1234", "Charge-Nr.1234"); a labelled cell of another lot is out', () => {
    for (const lot of ['LOT: 1234', 'Lot № 1234', '№1234', 'Charge-Nr.1234'])
      expect(judge({ production_dates: 'Lot 1234', ...US }, { lot }).scope, lot).toBe('in-scope');
    for (const lot of ['LOT:1299', 'Batch:1299'])
      expect(judge({ production_dates: 'Lot 1234', ...US }, { lot }).level, lot).toBe('excluded');
  });
});

describe("a US notice's dotted dates and dates under European labels are read both ways (defect 10)", () => {
  it.each([
    ['MHD 05.06.2025'],
    ['Best before 05.06.2025'],
    ['Best before 05-06-2025'],
    ['DDM 05/06/2025'],
    ['DLC : 05/06/2025'],
  ])('geo US, "%s": a row best before 2025-06-05 (5 June) is in scope', (text) => {
    const m = judge({ production_dates: text, ...US }, { bb: '2025-06-05' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('…and a row outside both readings is still out: "MHD 05.06.2025", 2025-07-01', () => {
    expect(judge({ production_dates: 'MHD 05.06.2025', ...US }, { bb: '2025-07-01' }).level).toBe('excluded');
  });

  it('a US slashed date with an English label keeps the US order; a European notice keeps day first', () => {
    // 05/06/2025 on a US notice is 6 May: 5 June is outside it.
    expect(judge({ production_dates: 'Best before 05/06/2025', ...US }, { bb: '2025-06-05' }).level).toBe('excluded');
    // 05.06.2025 on a German or British notice is 5 June: 6 May is outside it.
    expect(judge({ production_dates: 'MHD 05.06.2025', ...DE }, { bb: '2025-05-06' }).level).toBe('excluded');
    expect(judge({ production_dates: 'Best before 05.06.2025', ...GB }, { bb: '2025-05-06' }).level).toBe('excluded');
  });
});

describe('one folding for the reader and the guards (second read, defects 1 and 3)', () => {
  it.each([
    ['Lot 1234 jusqu’à ce jour', { lot: '1300' }],
    ['Lot 1234 jusqu’à aujourd’hui', { lot: '1300' }],
    ['DDM du 01/06/2025 jusqu’à aujourd’hui', { bb: '01/07/2025' }],
  ])('"%s" (typographic apostrophes) runs open: %j is never excluded, as with a straight one', (text, row) => {
    for (const written of [text, text.replace(/’/g, "'")]) inside(judge({ production_dates: written, ...FR }, row));
  });

  it('"Lot 1234 – 1240", an en dash the guards used to list apart, is still a range: 1238 in, 1250 out', () => {
    expect(judge({ production_dates: 'Lots 1234 – 1240', ...FR }, { lot: '1238' }).scope).toBe('in-scope');
    expect(judge({ production_dates: 'Lots 1234 – 1240', ...FR }, { lot: '1250' }).level).toBe('excluded');
  });
});

describe('a lot cell with any label of a word or two before ":" (second read, defect 1)', () => {
  it.each(['Lot code:1234', 'Lot ID:1234', 'Lot ref: 1234'])('notice "Lot 1234", cell "%s": in scope', (lot) => {
    const m = judge({ production_dates: 'Lot 1234', ...US }, { lot });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('a cell so labelled with another lot is still out ("Lot code:1299")', () => {
    expect(judge({ production_dates: 'Lot 1234', ...US }, { lot: 'Lot code:1299' }).level).toBe('excluded');
  });
});
