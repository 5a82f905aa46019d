// A catalogue row's barcodes (plain, GS1 element strings, Digital Links) and its batch: the lot and date the scope check reads.
import type { ColumnMap, Role } from './catalogue-columns.js';
import { type Catalogue, type CatalogueRow, cellOf, type RaggedCells } from './catalogue.js';
import { type Gs1Code, parseGs1 } from './gs1.js';
import { normalizeGtin } from './gtin.js';
import { cellDates, columnOrder, type DateOrder, type Span } from './scope-dates.js';

export interface RowCode {
  raw: string;
  /** Undefined when the cell holds no GTIN at all (reason says why). */
  gtin14?: string;
  valid: boolean;
  reason?: string;
}

export interface CatalogueBatch {
  lot?: string;
  /** Every reading of the row's date: 01/02/2025 is two unless its column shows which number is the day. */
  dates?: Span[];
  /** The row's cells do not line up with the header: its lot and date may be other columns', and prove nothing. */
  ragged?: RaggedCells;
}

const cell = (row: CatalogueRow, columns: ColumnMap, role: Role) => {
  const header = columns[role];
  return header === undefined ? '' : cellOf(row, header).trim();
};

/**
 * The row's barcode cells (one column, or each of several: `gtin` and `ean`): each one code, or a GS1 element string /
 * Digital Link whose lot and dates the batch reads (the first such).
 */
export function rowCodes(
  catalogue: Pick<Catalogue, 'columns'>,
  row: CatalogueRow,
): { codes: RowCode[]; gs1?: Gs1Code } {
  const first = cell(row, catalogue.columns, 'gtin');
  const also = catalogue.columns.gtinAlso;
  const raws = also === undefined ? [first] : [first, ...also.map((h) => cellOf(row, h).trim())];
  const codes: RowCode[] = [];
  let gs1: Gs1Code | undefined;
  for (const raw of raws) {
    if (raw === '' || codes.some((c) => c.raw === raw)) continue;
    const parsed = parseGs1(raw);
    gs1 ??= parsed;
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
 * The lot and best-before columns first, else what the row's GS1 code carries (its expiry or best-before date); and the
 * row's ragged cells: any row whose cells are not exactly the header's named ones, trailing empty cells too. A shifted
 * row ending with a delimiter (`A-1,…,Saucisson sec, 250 g,L00005,`) has the cells of a row of an export that ends
 * every row with one, so its lot and date never prove it out (over-pulling is the safe error); only the warning
 * (RaggedTally.settled) waits for an uneven file.
 */
export function rowBatch(
  catalogue: Pick<Catalogue, 'columns'>,
  row: CatalogueRow,
  gs1?: Gs1Code,
  order: DateOrder = 'either',
): CatalogueBatch {
  const lot = cell(row, catalogue.columns, 'lot') || gs1?.lot || '';
  const dateText = cell(row, catalogue.columns, 'best_before');
  const gs1Date = gs1?.dates.find((d) => d.kind === 'expiry' || d.kind === 'best-before')?.date;
  const dates = dateText !== '' ? cellDates(dateText, order) : gs1Date ? [{ from: gs1Date, to: gs1Date }] : [];
  const { ragged } = row;
  return { ...(lot !== '' && { lot }), ...(dates.length > 0 && { dates }), ...(ragged && { ragged }) };
}

/** The order the catalogue's date column writes day and month in, from the cells that show it (13/04 or 04/13). */
export function dateColumnOrder(catalogue: Catalogue): DateOrder {
  const header = catalogue.columns.best_before;
  if (header === undefined) return 'either';
  return columnOrder(catalogue.rows.map((r) => r.values[header] ?? ''));
}
