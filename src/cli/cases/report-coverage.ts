// The catalogue side of the report: rows, rows a recall can be matched on, and rows that have a case.
import type { Catalogue, CatalogueRow } from '../../match/catalogue.js';
import { normalizeGtin } from '../../match/gtin.js';
import type { StatusReporter } from '../terminal/status.js';
import { keyColumn, rowKeys } from './open-cases.js';
import type { CatalogueCoverage } from './report-data.js';

/** A valid barcode, a model number, or a brand and a name: what the matcher can use. */
function identifiable(catalogue: Catalogue, row: CatalogueRow): boolean {
  const { gtin, brand, model, name } = catalogue.columns;
  const value = (column: string | undefined) => (column === undefined ? '' : (row.values[column] ?? '').trim());
  if (value(gtin) !== '' && normalizeGtin(value(gtin)).ok) return true;
  if (value(model) !== '') return true;
  return value(brand) !== '' && value(name) !== '';
}

export function catalogueCoverage(
  file: string,
  catalogue: Catalogue,
  key: string | undefined,
  caseKeys: ReadonlySet<string>,
  status: StatusReporter,
): CatalogueCoverage {
  const column = keyColumn(catalogue, key);
  const keyOf = rowKeys(catalogue, column, status);
  let withId = 0;
  let withCases = 0;
  for (const row of catalogue.rows) {
    if (identifiable(catalogue, row)) withId++;
    if (caseKeys.has(keyOf(row))) withCases++;
  }
  return {
    file,
    rows: catalogue.rows.length,
    with_identifier: withId,
    without_identifier: catalogue.rows.length - withId,
    key_column: column ?? null,
    rows_with_cases: withCases,
  };
}
