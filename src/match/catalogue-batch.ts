// A catalogue row's barcodes (plain, GS1 element strings, Digital Links) and its batch: the lot and date the scope check reads.
import { roleHeaders } from './catalogue-columns.js';
import { type Catalogue, type CatalogueRow, cellOf, type RaggedCells } from './catalogue.js';
import { type Gs1Code, parseGs1 } from './gs1.js';
import { normalizeGtin } from './gtin.js';
import { cellDates, columnOrder, type DateOrder, type Span } from './scope-dates.js';
import { type RowLots, rowLots } from './scope-row-lots.js';

export interface RowCode {
  raw: string;
  /** Undefined when the cell holds no GTIN at all (reason says why). */
  gtin14?: string;
  valid: boolean;
  reason?: string;
}

export interface CatalogueBatch {
  /** The row's lot cells and its GS1 code's lot, each different one joined by "; " (as shown): the row is each of them. */
  lot?: string;
  /** Those cells, each read on its own, once for the row (rowLots): what the scope check compares. */
  lots?: RowLots;
  /**
   * Every reading of the row's dates (each date column's cell and each GS1 expiry or best-before date): 01/02/2025 is
   * two unless its column shows which number is the day. None when any of them cannot be read: the row's date then
   * proves nothing.
   */
  dates?: Span[];
  /** The row's cells do not line up with the header: its lot and date may be other columns', and prove nothing. */
  ragged?: RaggedCells;
}

/** The order each date column writes day and month in (by header), or one order for them all. */
export type DateOrders = DateOrder | Readonly<Record<string, DateOrder>>;

/** The row's cells of a role that reads every column of its names, trimmed, empty ones too. */
const cells = (row: CatalogueRow, catalogue: Pick<Catalogue, 'columns'>, role: 'gtin' | 'lot' | 'best_before') =>
  roleHeaders(catalogue.columns, role).map((h) => cellOf(row, h).trim());

/** GS1's dates of the pack: a production (11), packaging (13) or sell-by (16) date says nothing of its use-by date. */
const PACK_DATES = new Set(['expiry', 'best-before']);

/** Two GS1 codes of one row as one batch: the first's GTIN, each lot, every date. */
function joined(a: Gs1Code, b: Gs1Code): Gs1Code {
  const lot = [...new Set([a.lot, b.lot].filter((l): l is string => l !== undefined))].join('; ');
  const unread = a.unreadDate ?? b.unreadDate;
  return {
    gtin: a.gtin,
    ...(lot !== '' && { lot }),
    dates: [...a.dates, ...b.dates],
    ...(unread && { unreadDate: unread }),
  };
}

/**
 * The row's barcode cells (one column, or each of several: `gtin` and `ean`): each one code, or a GS1 element string /
 * Digital Link whose lots and dates the batch reads (of every such cell).
 */
export function rowCodes(
  catalogue: Pick<Catalogue, 'columns'>,
  row: CatalogueRow,
): { codes: RowCode[]; gs1?: Gs1Code } {
  const raws = cells(row, catalogue, 'gtin');
  const codes: RowCode[] = [];
  let gs1: Gs1Code | undefined;
  for (const raw of raws) {
    if (raw === '' || codes.some((c) => c.raw === raw)) continue;
    const parsed = parseGs1(raw);
    if (parsed) gs1 = gs1 ? joined(gs1, parsed) : parsed;
    const result = normalizeGtin(parsed ? parsed.gtin : raw);
    codes.push(
      result.ok
        ? { raw, gtin14: result.gtin14, valid: true }
        : {
            raw,
            valid: false,
            reason: result.reason,
            ...(result.unchecked !== undefined && { gtin14: result.unchecked }),
          },
    );
  }
  return { codes, ...(gs1 && { gs1 }) };
}

/**
 * The lot and date the scope check reads: every lot column's cell and the row's GS1 lot (each read on its own), every
 * date column's cell (in its column's order) and every expiry or best-before date its GS1 code carries (a row is out
 * only if all of them are); and the row's ragged cells: any row whose cells are not exactly the header's named ones,
 * trailing empty cells too. A shifted row ending with a delimiter (`A-1,…,Saucisson sec, 250 g,L00005,`) has the cells
 * of a row of an export that ends every row with one, so its lot and date never prove it out (over-pulling is the safe
 * error); only the warning (RaggedTally.settled) waits for an uneven file.
 */
export function rowBatch(
  catalogue: Pick<Catalogue, 'columns'>,
  row: CatalogueRow,
  gs1?: Gs1Code,
  orders: DateOrders = 'either',
): CatalogueBatch {
  const sources = [...new Set([...cells(row, catalogue, 'lot'), gs1?.lot ?? ''].filter((l) => l !== ''))];
  const lot = sources.join('; ');
  const headers = roleHeaders(catalogue.columns, 'best_before');
  const dated = headers.map((h) => ({ text: cellOf(row, h).trim(), order: orderOf(orders, h) }));
  const dates = rowDates(dated, gs1);
  const { ragged } = row;
  return {
    ...(lot !== '' && { lot, lots: rowLots(sources) }),
    ...(dates.length > 0 && { dates }),
    ...(ragged && { ragged }),
  };
}

const orderOf = (orders: DateOrders, header: string): DateOrder =>
  typeof orders === 'string' ? orders : (orders[header] ?? 'either');

/**
 * Every reading of a row's date cells and GS1 pack dates; none at all when one of them cannot be read (a bound, a span,
 * a word the reader does not know, a GS1 pack date that is no date): the date it holds may be the one a notice names.
 */
function rowDates(cells: readonly { text: string; order: DateOrder }[], gs1: Gs1Code | undefined): Span[] {
  if (gs1?.unreadDate) return [];
  const readings: Span[] = [];
  for (const { text, order } of cells) {
    if (text === '') continue;
    const read = cellDates(text, order);
    if (read.length === 0) return [];
    readings.push(...read);
  }
  for (const d of gs1?.dates ?? []) if (PACK_DATES.has(d.kind)) readings.push({ from: d.from, to: d.to });
  return readings;
}

/**
 * The order each of the catalogue's date columns writes day and month in, from its own cells that show it (13/04 or
 * 04/13): a column whose cells do not decide it is read both ways, whatever another column shows.
 */
export function dateColumnOrders(catalogue: Catalogue): Record<string, DateOrder> {
  const headers = roleHeaders(catalogue.columns, 'best_before');
  return Object.fromEntries(headers.map((h) => [h, columnOrder(catalogue.rows.map((r) => r.values[h] ?? ''))]));
}
