// The products a tool checks: given inline (one catalogue in memory) or the configured --catalog, indexed as match indexes them.
import { z } from 'zod';
import { resolveColumns } from '../../match/catalogue-columns.js';
import type { Catalogue } from '../../match/catalogue.js';
import { CatalogueIndex } from '../../match/matcher.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { loadMatcher } from '../../jobs/matching/load-catalogue.js';
import type { ToolDeps } from '../tool-deps.js';

const cell = (what: string) => z.string().max(500).optional().describe(what);

export const ProductSchema = z.object({
  sku: cell('your own product id: how its cases are known'),
  gtin: cell('barcode: GTIN-8 to 14 (EAN, UPC)'),
  brand: cell('brand'),
  model: cell('model or reference number'),
  name: cell('product name'),
  lot: cell('lot or batch'),
  best_before: cell('best-before or expiry date'),
});

export type Product = z.infer<typeof ProductSchema>;

const HEADERS = ['sku', 'gtin', 'brand', 'model', 'name', 'lot', 'best_before'] as const;

/** Products given inline as a catalogue in memory: the same columns and rows a CSV with these headers gives. */
export function inlineCatalogue(products: readonly Product[]): Catalogue {
  const headers = [...HEADERS];
  const rows = products.map((p, i) => ({
    line: i + 1,
    values: Object.fromEntries(headers.map((h) => [h, (p[h] ?? '').trim()])) as Record<string, string>,
  }));
  if (!rows.some((r) => r.values.gtin || r.values.model || (r.values.brand && r.values.name)))
    throw new UsageError('each product needs a gtin, a model, or a brand and a name: nothing else can match');
  return { file: '(inline products)', headers, columns: resolveColumns(headers, {}), rows, repeated: [] };
}

export interface Products {
  catalogue: Catalogue;
  index: CatalogueIndex;
  /** The column naming each row for cases (sku inline; --key or a key column for --catalog). */
  key: string | undefined;
  from: 'inline' | 'catalogue';
}

/** The products inline when given, else the configured catalogue; neither is a tool error that says what to do. */
export async function productsFor(deps: ToolDeps, inline: readonly Product[] | undefined): Promise<Products> {
  if (inline !== undefined && inline.length > 0) {
    const catalogue = inlineCatalogue(inline);
    return { catalogue, index: new CatalogueIndex(catalogue), key: 'sku', from: 'inline' };
  }
  const configured = deps.plan.catalog;
  if (configured === undefined)
    throw new UsageError(
      'no products given, and the server has no catalogue',
      'pass products, or start the server with recall-feed mcp --catalog products.csv',
    );
  const { session } = deps;
  const { catalogue, index, column } = await loadMatcher(
    configured.file,
    configured.map,
    configured.key,
    session.status,
    session.ctx.env,
  );
  return { catalogue, index, key: column, from: 'catalogue' };
}
