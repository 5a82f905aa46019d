// A battery's IEC size in a notice's model list (CR2032, LR44) names a size every maker sells, not a product: it ties
// no other brand's pack, not even as a possible; the recalling brand's own pack of that size still matches.
import { describe, expect, it } from 'vitest';
import { isCellSize, modelKey } from '../../src/match/match-keys.js';
import { matchesOf } from '../helpers/catalogue-rows.js';

// CPSC, Great Lakes Wholesale (2023): the notice's fields as published.
const greatLakes = {
  data_source: 'us_cpsc',
  product_brand: 'Great Lakes Wholesale International of Lockport, Illinois',
  alert_title:
    'Great Lakes Wholesale International Recalls Select Battery Packs Due to Battery Ingestion; Violates Federal Statute for Child-Resistant Packaging of Button Cell and Coin Batteries',
  product_name: 'Great Lakes Select Button Cell and Coin Batteries',
  product_description:
    'This recall involves Great Lakes Select Battery Packs, each of which displays the name "Great Lakes Select" on the back of the packaging, and the item number on the front of the packaging Item Number Description Battery Type Item Price Range 263 Pack of six (6) CR2032 $0.65 to $1.10 264 Pack of nine (9) CR2016/ CR2032/ CR2025 $1.10 to $1.50',
  product_model_numbers: ['263', 'CR2032', '264', 'CR2016', 'CR2025', '265', '271', '272', '276'],
  geo_jurisdictions: ['US'],
};

describe("a battery's size as a model number", () => {
  it('is recognised by its IEC designation, however it is written', () => {
    for (const size of ['CR2032', 'cr-2025', 'LR44', 'SR626', 'AG13', '6LR61', 'CR123A', 'BR 1225'])
      expect(isCellSize(modelKey(size)), size).toBe(true);
    for (const model of ['NTRW19147', 'GL-2032', '263', 'CRX2032', 'LR', 'TSSTTVFDXL'])
      expect(isCellSize(modelKey(model)), model).toBe(false);
  });

  it("ties no other brand's pack, while the recalling brand's pack and other models still match", () => {
    const rows = [
      { brand: 'Energizer', name: 'CR2032 lithium coin battery 2 pack', model: 'CR2032' },
      { brand: 'Great Lakes Select', name: 'Coin batteries 6 pack', model: 'CR2032' },
      { brand: 'Duracell', name: 'Coin batteries 9 pack', model: '264' },
    ];
    const found = matchesOf(rows, greatLakes).map((m) => [m.line, m.level, m.reason]);
    expect(found).toEqual([
      [2, 'match', 'model+brand'],
      [3, 'possible', 'model'],
    ]);
  });
});
