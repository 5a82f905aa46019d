// An in-memory catalogue of plain rows (barcode, brand, model, name) for the matcher's unit tests, and what it matches.
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';

/** The rows as `match` reads a CSV with columns ean, brand, model and name; line numbers start at 1. */
export function catalogueOf(rows: Record<string, string>[], file = 'catalogue.csv'): Catalogue {
  return {
    file,
    headers: ['ean', 'brand', 'model', 'name'],
    columns: { gtin: 'ean', brand: 'brand', model: 'model', name: 'name' },
    rows: rows.map((values, i) => ({ line: i + 1, values })),
    repeated: [],
  };
}

/** What the in-memory matcher finds for `recall` among `rows`: each pair's line, level, reason and explanation. */
export function matchesOf(rows: Record<string, string>[], recall: Record<string, unknown>) {
  return new CatalogueIndex(catalogueOf(rows)).match(recall, { explain: true }).map((m) => ({
    line: m.row.line,
    level: m.level,
    reason: m.reason,
    explain: m.explain ?? '',
  }));
}
