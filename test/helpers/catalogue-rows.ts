// An in-memory catalogue of plain rows (barcode, brand, model, name) for the matcher's unit tests.
import type { Catalogue } from '../../src/match/catalogue.js';

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
