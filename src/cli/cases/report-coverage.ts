// The catalogue side of the report: rows, rows a recall can be matched on (as the matcher sees them), and rows that have a case.
import type { Catalogue } from '../../match/catalogue.js';
import type { StatusReporter } from '../terminal/status.js';
import { rowKeys } from './open-cases.js';
import type { CatalogueCoverage } from './report-data.js';

export function catalogueCoverage(
  file: string,
  catalogue: Catalogue,
  column: string | undefined,
  /** The matcher's own rows it can match at all (CatalogueIndex.matchable): a valid barcode, a model, a brand and name. */
  matchable: ReadonlySet<number>,
  caseKeys: ReadonlySet<string>,
  status: StatusReporter,
): CatalogueCoverage {
  const keyOf = rowKeys(catalogue, column, status);
  let withId = 0;
  let withCases = 0;
  for (const row of catalogue.rows) {
    if (matchable.has(row.line)) withId++;
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
