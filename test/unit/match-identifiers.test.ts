// Identifier forms of real notices and catalogues: leading-zero padded GTINs, wrong check digits, GS1 element strings and Digital Links.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { gs1Date, parseGs1 } from '../../src/match/gs1.js';
import { normalizeGtin } from '../../src/match/gtin.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { codesOfRun, recallCodes } from '../../src/match/recall-codes.js';

describe('normalizeGtin, wider', () => {
  it('a 16-digit code padded with zeros (0003301170008504) is the EAN-13 3301170008504', () => {
    expect(normalizeGtin('0003301170008504')).toEqual({ ok: true, gtin14: '03301170008504' });
    expect(normalizeGtin('1003301170008504').ok).toBe(false);
  });
  it('a UPC whose leading 0 a spreadsheet dropped (11 digits) is still the UPC', () => {
    expect(normalizeGtin('36000291452')).toEqual({ ok: true, gtin14: '00036000291452' });
  });
  it('a wrong check digit keeps its 14 digits, for an identical code only', () => {
    expect(normalizeGtin('3301170008505')).toEqual({
      ok: false,
      reason: 'wrong check digit (5, expected 4)',
      unchecked: '03301170008505',
    });
  });
});

describe('GS1 codes', () => {
  it('an element string: GTIN, lot, expiry', () => {
    expect(parseGs1('(01)03301170008504(10)V028(17)210404')).toEqual({
      gtin: '03301170008504',
      lot: 'V028',
      dates: [{ kind: 'expiry', from: '2021-04-04', to: '2021-04-04' }],
    });
  });
  it('a Digital Link: path and query', () => {
    expect(parseGs1('https://id.gs1.org/01/03301170008504/10/V028?15=210400')).toEqual({
      gtin: '03301170008504',
      lot: 'V028',
      dates: [{ kind: 'best-before', from: '2021-04-01', to: '2021-04-30' }],
    });
    expect(parseGs1('https://example.com/products/42')).toBeUndefined();
    expect(parseGs1('3301170008504')).toBeUndefined();
  });
  it('YYMMDD with DD 00 is the whole month (GS1: no day given); a 13th month is no date', () => {
    expect(gs1Date('240200')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(gs1Date('240215')).toEqual({ from: '2024-02-15', to: '2024-02-15' });
    expect(gs1Date('241301')).toBeUndefined();
  });
});

describe('recallCodes', () => {
  it('reads the GTIN of a RappelConso line, a CPSC "UPC 0 12345 67890 5" and keeps a wrong check digit as unchecked', () => {
    const codes = recallCodes({
      standard_identifiers_and_barcodes: [
        '3564709006031 V028 Date de durabilité minimale 04/04/2021',
        { type: 'batch', value: '12345678' },
        { type: 'EAN', value: '3301170008505' },
      ],
      product_description: 'Sold in a box with UPC 0 12345 67890 5 printed on the back.',
    });
    expect(codes).toEqual([
      { raw: '3564709006031', gtin14: '03564709006031', valid: true },
      { raw: '3301170008505', gtin14: '03301170008505', valid: false },
      { raw: '0 12345 67890 5', gtin14: '00012345678905', valid: true },
    ]);
  });
});

describe('the matcher on these forms', () => {
  const cat = (rows: Record<string, string>[], extra: string[] = []): Catalogue => ({
    file: 'c.csv',
    headers: ['ean', 'name', ...extra],
    columns: { gtin: 'ean', name: 'name', ...(extra.includes('lot') && { lot: 'lot' }) },
    rows: rows.map((values, i) => ({ line: i + 1, values })),
    repeated: [],
  });
  it('a padded code, an element string and a Digital Link all match the notice code; a GS1 lot feeds the scope', () => {
    const index = new CatalogueIndex(
      cat([
        { ean: '0003564709006031', name: 'a' },
        { ean: '(01)03564709006031(10)V028(17)210404', name: 'b' },
        { ean: 'https://id.gs1.org/01/03564709006031/10/V031', name: 'c' },
      ]),
    );
    const got = index.match(
      { standard_identifiers_and_barcodes: ['3564709006031 V028 Date de durabilité minimale 04/04/2021'] },
      { explain: true },
    );
    expect(got.map((m) => [m.row.line, m.level, m.reason, m.scope])).toEqual([
      [1, 'match', 'barcode', 'unknown'],
      [2, 'match', 'barcode', 'in-scope'],
      [3, 'excluded', 'barcode', 'out-of-scope'],
    ]);
    expect(got[2]?.scopeEvidence).toBe(
      'standard_identifiers_and_barcodes: "3564709006031 V028 Date de durabilité minimale 04/04/2021"',
    );
    // The row gives no lot or date: the notice's scope is listed, and what to verify.
    expect(got[0]?.explain).toBe(
      'barcode: notice "3564709006031" = catalogue "0003564709006031" (GTIN-14 03564709006031, check digit valid)' +
        '; scope read: best-before 2021-04-04, lot v028; row no lot, no date: unknown (verify lot/date, the catalogue row has no lot or date: ' +
        'standard_identifiers_and_barcodes: "3564709006031 V028 Date de durabilité minimale 04/04/2021" · ' +
        'standard_identifiers_and_barcodes: "Date de durabilité minimale 04/04/2021")',
    );
  });
  it('the identical code with a wrong check digit is possible/barcode-unchecked', () => {
    const index = new CatalogueIndex(cat([{ ean: '3301170008505', name: 'x' }]));
    const [m] = index.match({ standard_identifiers_and_barcodes: [{ type: 'EAN', value: '3301170008505' }] });
    expect([m?.level, m?.reason]).toEqual(['possible', 'barcode-unchecked']);
    expect(index.match({ standard_identifiers_and_barcodes: ['3301170008504'] })).toEqual([]);
  });
});

describe('codes next to a numeric lot', () => {
  it('"3560071083410 2230 Date limite…" is the GTIN 3560071083410, not 17 digits; the $ form likewise', () => {
    const gtins = (value: string) => recallCodes({ standard_identifiers_and_barcodes: [value] }).map((c) => c.gtin14);
    expect(gtins('3560071083410 2230 Date limite de consommation 15/09/2022')).toEqual(['03560071083410']);
    expect(gtins('3560071083410$2230$Date limite de consommation$15/09/2022')).toEqual(['03560071083410']);
  });
});

describe('codesOfRun', () => {
  it('a wrong check digit before a numeric lot is still read, unchecked; a short number alone is nothing', () => {
    expect(codesOfRun('3560071083411 2230')).toEqual([{ raw: '3560071083411', groups: 1 }]);
    expect(codesOfRun('2230')).toEqual([]);
    expect(codesOfRun('0 12345 67890 5')).toEqual([{ raw: '0 12345 67890 5', groups: 4 }]);
  });
});
