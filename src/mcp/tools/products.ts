// The products a tool checks: given inline (one catalogue in memory) or the configured --catalog, indexed as match indexes them.
import { z } from 'zod';
import { resolveColumns } from '../../match/catalogue-columns.js';
import type { Catalogue } from '../../match/catalogue.js';
import { CatalogueIndex } from '../../match/matcher.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { loadMatcher } from '../../jobs/matching/load-catalogue.js';
import { reportCatalogue } from '../../jobs/matching/match-rows.js';
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

const HOW_TO_MATCH = 'give a gtin of 8 to 14 digits (its check digit last), a model, or a brand and a name';

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
  /** What `match` says of the catalogue on stderr (a barcode rejected or unchecked, ...): said in the answer. */
  warnings: string[];
}

/** An inline product as an assistant named it: its place in the list (1 the first) and its sku. */
function productName(products: readonly Product[], line: number): string {
  const sku = products[line - 1]?.sku?.trim().slice(0, 60);
  return `product ${line}${sku ? ` (sku ${sku})` : ''}`;
}

/**
 * The inline products indexed, their barcode warnings said as `match` says them, each naming the product, and then
 * the products that cannot be checked at all: a barcode refused (not a GTIN), and no model, nor a brand and a name.
 * Kept with that warning, so that one bad barcode in a list does not refuse the others; when none can be checked,
 * refused, so that no answer says "0 match" of products it never checked.
 */
function inlineProducts(inline: readonly Product[]): Products {
  const catalogue = inlineCatalogue(inline);
  const index = new CatalogueIndex(catalogue);
  // A wrong check digit still matches the identical code in a notice, as possible.
  const unchecked = new Set(index.rejected.filter((r) => r.unchecked).map((r) => r.line));
  const checkable = (line: number) => index.matchable.has(line) || unchecked.has(line);
  const lines = [...new Set(index.rejected.filter((r) => !r.unchecked && !checkable(r.line)).map((r) => r.line))];
  const named = lines.slice(0, 5).map((line) => productName(inline, line));
  const more = lines.length > 5 ? ` and ${lines.length - 5} more` : '';
  const what = `${named.join(', ')}${more}: a barcode that is not a GTIN, and no model, nor a brand and a name`;
  if (lines.length > 0 && !catalogue.rows.some((r) => checkable(r.line)))
    throw new UsageError(`no product can be checked: ${what}`, HOW_TO_MATCH);
  const warnings: string[] = [];
  reportCatalogue(catalogue, index.rejected, {
    warn: (text) => warnings.push(text.replace(/^catalogue row (\d+)/, (_, n) => productName(inline, Number(n)))),
  });
  if (lines.length > 0) warnings.push(`not checked, nothing can match them: ${what} (${HOW_TO_MATCH})`);
  return { catalogue, index, key: 'sku', from: 'inline', warnings };
}

/**
 * The products inline when given, else the configured catalogue; neither is a tool error that says what to do. The
 * catalogue's warnings come back with them, never said on stderr nor remembered as said: a question from an assistant
 * must not silence the next cron digest's warnings.
 */
export async function productsFor(deps: ToolDeps, inline: readonly Product[] | undefined): Promise<Products> {
  if (inline !== undefined && inline.length > 0) return inlineProducts(inline);
  const configured = deps.plan.catalog;
  if (configured === undefined)
    throw new UsageError(
      'no products given, and the server has no catalogue',
      'pass products, or start the server with recall-feed mcp --catalog products.csv',
    );
  const { session } = deps;
  const { catalogue, index, column, warnings } = await loadMatcher(
    configured.file,
    configured.map,
    configured.key,
    session.status,
    session.ctx.env,
    { sayOnce: false },
  );
  return { catalogue, index, key: column, from: 'catalogue', warnings };
}
