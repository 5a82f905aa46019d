// Tier precision from case outcomes and per-source coverage, on hand-counted inputs.
import { describe, expect, it } from 'vitest';
import { CoverageCounter, tierPrecision } from '../../src/match/quality.js';

const closed = (level: string, reason: string, outcome: string) => ({ level, reason, status: 'closed', outcome });

describe('tierPrecision', () => {
  it('confirmed against wrong per level and reason; unjudged apart; too few to judge under the threshold', () => {
    const cases = [
      ...Array.from({ length: 9 }, () => closed('match', 'barcode', 'removed-from-sale')),
      closed('match', 'barcode', 'action-taken'),
      closed('match', 'barcode', 'false-positive'),
      closed('match', 'barcode', 'no-action-needed'),
      { level: 'match', reason: 'barcode', status: 'open', outcome: null },
      closed('possible', 'brand+name', 'not-our-product'),
      closed('possible', 'brand+name', 'removed-from-sale'),
    ];
    const rows = tierPrecision(cases);
    expect(rows.map((r) => [r.subject, r.sample, r.confirmed, r.wrong, r.unjudged, r.precision])).toEqual([
      ['match/barcode', 11, 10, 1, 2, 0.909],
      ['possible/brand+name', 2, 1, 1, 0, null],
    ]);
    expect(rows[0]?.note).toBe('');
    expect(rows[1]?.note).toBe('too few to judge (2 closed as confirmed or wrong; 10 needed)');
  });
});

describe('CoverageCounter', () => {
  it('per source: shares of recalls with a barcode (even one with a wrong check digit), a model, a lot (or all lots), a best-before or use-by date', () => {
    const counter = new CoverageCounter();
    counter.add({
      data_source: 'rappel_conso',
      standard_identifiers_and_barcodes: ['3564709006031 V028 Date de durabilité minimale 04/04/2021'],
    });
    counter.add({ data_source: 'rappel_conso', standard_identifiers_and_barcodes: ['3250391773818 Tous les lots'] });
    counter.add({ data_source: 'rappel_conso', production_dates: 'Du 01/02/2025 au 12/03/2025' });
    counter.add({
      data_source: 'rappel_conso',
      standard_identifiers_and_barcodes: [{ type: 'EAN', value: '3301170008505' }],
    });
    counter.add({
      data_source: 'cpsc',
      product_model_numbers: ['PB-2000'],
      product_description: 'UPC 0 12345 67890 5',
    });
    expect(counter.rows().map((r) => [r.subject, r.sample, r.barcode, r.model, r.lot, r.date])).toEqual([
      ['cpsc', 1, 1, 1, 0, 0],
      ['rappel_conso', 4, 0.75, 0, 0.5, 0.25],
    ]);
  });
});
