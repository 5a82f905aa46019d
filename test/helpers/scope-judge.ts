// One catalogue row (barcode, lot, best-before) judged against one notice by the in-memory matcher: the scope tests' probe.
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';

export const EAN = '3564709006031';

/** One catalogue row holding the notice's barcode, with the lot and best-before cells given; its match. */
export function judge(notice: Record<string, unknown>, row: { lot?: string; bb?: string; ean?: string }) {
  const ean = row.ean ?? EAN;
  const catalogue: Catalogue = {
    file: 'c.csv',
    headers: ['ean', 'lot', 'best_before'],
    columns: { gtin: 'ean', lot: 'lot', best_before: 'best_before' },
    rows: [{ line: 1, values: { ean, lot: row.lot ?? '', best_before: row.bb ?? '' } }],
    repeated: [],
  };
  const recall = { standard_identifiers_and_barcodes: [{ type: 'EAN', value: ean }], ...notice };
  const [m] = new CatalogueIndex(catalogue).match(recall, { explain: true });
  if (!m) throw new Error('the row did not match the notice at all');
  return m;
}

/** Where a notice comes from decides the order of day and month in its dates. */
export const FR = { geo_jurisdictions: ['FR'] };
export const US = { geo_jurisdictions: ['US'] };
export const GB = { geo_jurisdictions: ['GB'] };
export const DE = { geo_jurisdictions: ['DE'] };
