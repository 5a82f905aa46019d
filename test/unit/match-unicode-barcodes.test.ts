// Barcodes written in Unicode forms: a notice's digits grouped by NBSP or a Unicode dash, full-width or Arabic-Indic
// digits, invisible characters; a catalogue cell in those forms or with Excel's leading apostrophe. Each is the plain
// code, its check digit still deciding, and a digit run's groups and ends are where an ASCII space would put them.
import { describe, expect, it } from 'vitest';
import { normalizeGtin } from '../../src/match/gtin.js';
import { recallCodes } from '../../src/match/recall-codes.js';
import { matchesOf } from '../helpers/catalogue-rows.js';

/** 3760123456821: EAN-13 whose check digit 1 is right (3+21+6+0+1+6+3+12+5+18+8+6 = 89). */
const GAUFRES = '03760123456821';

const FORMS: [string, string][] = [
  ['narrow NBSP', '3\u202f760123\u202f456821'],
  ['NBSP', '3\u00a0760123\u00a0456821'],
  ['thin space', '3\u2009760123\u2009456821'],
  ['ZWSP', '3\u200b760123\u200b456821'],
  ['non-breaking hyphen', '3\u2011760123\u2011456821'],
  ['en dash', '3\u2013760123\u2013456821'],
  ['full-width digits', '３７６０１２３４５６８２１'],
  ['Arabic-Indic digits', '٣٧٦٠١٢٣٤٥٦٨٢١'],
];

const codes = (recall: Record<string, unknown>) => recallCodes(recall).map((c) => [c.gtin14, c.valid]);

describe('a notice barcode in Unicode forms is read (review defect 5)', () => {
  it.each(FORMS)('%s: in the identifiers, production dates, description and as an unlabelled code', (_, code) => {
    expect(codes({ standard_identifiers_and_barcodes: [{ type: 'EAN', value: code }] })).toEqual([[GAUFRES, true]]);
    expect(codes({ production_dates: `EAN ${code}` })).toEqual([[GAUFRES, true]]);
    expect(codes({ product_description: `Code-barres : ${code}` })).toEqual([[GAUFRES, true]]);
    expect(codes({ product_description: `Gaufres vanille ${code} x12` })).toEqual([[GAUFRES, true]]);
  });

  it.each(FORMS)('%s: the catalogue row with the plain code is a barcode match', (_, code) => {
    const rows = [{ ean: '3760123456821', brand: '', model: '', name: 'Gaufres vanille x12' }];
    const recall = { id: 1, standard_identifiers_and_barcodes: [{ type: 'EAN', value: code }] };
    expect(matchesOf(rows, recall).map((m) => [m.line, m.level, m.reason])).toEqual([[1, 'match', 'barcode']]);
  });

  it('the check digit still decides: a wrong one is unchecked when labelled, and no code when not', () => {
    // 4006381333931 is valid; its ...932 is not.
    expect(
      codes({ standard_identifiers_and_barcodes: [{ type: 'EAN', value: '４００６３８１３３３９３２' }] }),
    ).toEqual([['04006381333932', false]]);
    expect(codes({ product_description: 'Pack ٤٠٠٦٣٨١٣٣٣٩٣٢ x12' })).toEqual([]);
  });

  it('a 20-digit run grouped by an NBSP is read as the same run grouped by a space: no code it would not be', () => {
    // 4006381 and 3339311234568 (whose check digit should be 7): no group nor join of them is a GTIN, so no code,
    // although the second group alone has a code's 13 digits.
    for (const space of [' ', '\u00a0', '\u202f', '\u2009', '\u200b']) {
      const run = `4006381${space}3339311234568`;
      expect(codes({ standard_identifiers_and_barcodes: [{ type: 'EAN', value: run }] })).toEqual([]);
      expect(codes({ product_description: `Réf. ${run}` })).toEqual([]);
      // A GTIN, then a lot: the GTIN, as with a space.
      expect(codes({ product_description: `Réf. 4006381333931${space}1234567` })).toEqual([['04006381333931', true]]);
    }
    // Digits of other scripts joined to a GTIN make one longer run, no code (they were a boundary before).
    expect(codes({ product_description: 'Réf. ١٢4006381333931' })).toEqual([]);
  });
});

describe('a catalogue barcode cell in Unicode forms is read (review defect 10)', () => {
  it.each([
    ['full-width', '４００６３８１３３３９３１'],
    ['non-breaking hyphen', '4006381\u2011333931'],
    ['en dash', '4006381\u2013333931'],
    ['ZWSP', '\u200b4006381333931'],
    ['soft hyphen', '4006\u00ad381333931'],
    ['LRM', '\u200e4006381333931'],
    ['Arabic-Indic digits', '٤٠٠٦٣٨١٣٣٣٩٣١'],
    ["Excel's leading apostrophe", "'4006381333931"],
    ['Excel\'s ="…" text form', '="4006381333931"'],
  ])('%s: 4006381333931', (_, cell) => {
    expect(normalizeGtin(cell)).toEqual({ ok: true, gtin14: '04006381333931' });
    const rows = [{ ean: cell, brand: '', model: '', name: '' }];
    const recall = { id: 1, standard_identifiers_and_barcodes: [{ type: 'EAN', value: '4006381333931' }] };
    expect(matchesOf(rows, recall).map((m) => [m.line, m.level, m.reason])).toEqual([[1, 'match', 'barcode']]);
  });

  it('the check digit still decides, and an apostrophe anywhere but first is still no code', () => {
    expect(normalizeGtin('４００６３８１３３３９３２')).toEqual({
      ok: false,
      reason: 'wrong check digit (2, expected 1)',
      unchecked: '04006381333932',
    });
    expect(normalizeGtin("4006'381333931")).toEqual({ ok: false, reason: 'not only digits' });
    expect(normalizeGtin("''4006381333931")).toEqual({ ok: false, reason: 'not only digits' });
  });
});
