// Lots a CPSC notice lists as a table ("UPC Lot Number Manufacturing Date …"), and a row outside them excluded.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { scopeOfText } from '../../src/match/scope.js';

// CPSC 26221 (Mindbodygreen), product_description as published.
const MINDBODYGREEN =
  'This recall involves Mindbodygreen Ultimate Multivitamin+ dietary supplement bottles with the following UPC, lot numbers and manufacturing dates (Month/Year format). The dietary supplements come in eight-ounce amber glass bottles with black caps, each containing 60 capsules. The UPC, lot numbers and manufacturing dates are printed on the bottle. UPC Lot Number Manufacturing Date 850027975177 0515I1 09/2021 0130B2 01/2022 0187I2 08/2022 0324J2 10/2022 0309A3 12/2022 0368L2 12/2022 0272B3 02/2023 850027975429 0408H3 06/2023 0143A4 12/2023 0179C4 02/2024 4021131 05/2024 4033211 07/2024 4080841 10/2024 A010611 03/2025 A021211 03/2025';

const lots = (text: string) =>
  scopeOfText(text, 'product_description', 'month-first').flatMap((i) => (i.kind === 'lot' ? [i.lot] : []));

describe('a lot table', () => {
  it('reads every lot cell; the UPC and date columns are not lots', () => {
    expect(lots(MINDBODYGREEN)).toEqual(
      '0515i1 0130b2 0187i2 0324j2 0309a3 0368l2 0272b3 0408h3 0143a4 0179c4 4021131 4033211 4080841 a010611 a021211'.split(
        ' ',
      ),
    );
  });

  it('prose about lot numbers names none; a label then a comma still names its lot (CPSC 1010494)', () => {
    expect(lots('with the following UPC, lot numbers and manufacturing dates (Month/Year format).')).toEqual([]);
    expect(lots('The batch number, CCA06582, is printed on the back label of the pack')).toEqual(['cca06582']);
  });

  it('excludes the same UPC with a lot the table does not list', () => {
    const catalogue: Catalogue = {
      file: 'catalogue.csv',
      headers: ['upc', 'brand', 'name', 'lot'],
      columns: { gtin: 'upc', brand: 'brand', name: 'name', lot: 'lot' },
      rows: [
        { upc: '850027975177', brand: 'mindbodygreen', name: 'Ultimate Multivitamin+ 60 caps', lot: '0611K5' },
        { upc: '850027975177', brand: 'mindbodygreen', name: 'Ultimate Multivitamin+ 60 caps', lot: '0187I2' },
      ].map((values, i) => ({ line: i + 1, values })),
      repeated: [],
    };
    const got = new CatalogueIndex(catalogue).match({
      product_brand: 'Arizona Nutritional Supplements',
      product_description: MINDBODYGREEN,
      standard_identifiers_and_barcodes: [
        { type: 'UPC', value: '850027975177' },
        { type: 'UPC', value: '850027975429' },
      ],
      geo_jurisdictions: ['US'],
    });
    expect(got.map((m) => [m.row.line, m.level, m.scope])).toEqual([
      [2, 'match', 'in-scope'],
      [1, 'excluded', 'out-of-scope'],
    ]);
  });
});
