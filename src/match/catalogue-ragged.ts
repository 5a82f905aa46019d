// A CSV row's cells against its header's: a comma in an unquoted value shifts every cell after it (docs/matching.md).

/** A CSV row whose cells may not line up with its header: its count of cells, and its header's named ones. */
export interface RaggedCells {
  cells: number;
  /** The header's cells up to its last named one. */
  header: number;
  /**
   * Only empty cells past the named ones: the row lines up when every such row of the file has as many cells (an export
   * that ends each row with delimiters), and is ragged when they differ (RaggedRows.uneven): one may be a shifted row.
   */
  trailing?: true;
}

/** The CSV rows whose cells do not line up with the header: how many, and the first lines. */
export interface RaggedRows {
  /** The header's cells up to its last named one: what the rows are compared with. */
  header: number;
  rows: number;
  lines: number[];
  /** The rows with nothing past the named cells end with different counts of empty cells: those with any are ragged. */
  uneven?: true;
}

/** The lines a warning names; the rest are counted. */
const RAGGED_LINES = 5;

/** The header's cells up to its last named one (all of them when none is named). */
function namedCells(header: readonly string[]): number {
  let named = header.length;
  while (named > 0 && header[named - 1] === '') named--;
  return named === 0 ? header.length : named;
}

/**
 * A row's cells against the header's `named` ones. Exactly those line up; fewer, or a value past them (in a blank-named
 * column or past the header's end), are ragged; more that are all empty are `trailing`, for the file to decide.
 */
function rowCells(named: number, record: readonly string[]): RaggedCells | undefined {
  const cells = record.length;
  if (cells === named) return undefined;
  if (cells < named) return { cells, header: named };
  for (let k = named; k < cells; k++) if (record[k] !== '') return { cells, header: named };
  return { cells, header: named, trailing: true };
}

/** Tallies a CSV's rows against its header row as they are read; `settled()` says what the whole file decides. */
export class RaggedTally {
  private readonly named: number;
  private readonly sure = { rows: 0, lines: [] as number[] };
  private readonly trailing = { rows: 0, lines: [] as number[] };
  /** The count of cells every row with nothing past the named ones has so far; null once two of them differ. */
  private count: number | null | undefined;

  /** `read`: blank-named cells a column map reads (mappedBlanks), named as a header name makes one. */
  constructor(header: readonly string[], read: readonly number[] = []) {
    this.named = Math.max(namedCells(header), ...read.map((k) => k + 1));
  }

  /** Row `line`'s cells (counted when they may not line up). */
  note(line: number, record: readonly string[]): RaggedCells | undefined {
    const cells = rowCells(this.named, record);
    if (cells === undefined || cells.trailing) {
      this.count = this.count === undefined || this.count === record.length ? record.length : null;
    }
    if (cells !== undefined) {
      const kind = cells.trailing ? this.trailing : this.sure;
      kind.rows++;
      if (kind.lines.length < RAGGED_LINES) kind.lines.push(line);
    }
    return cells;
  }

  /** The ragged rows of the rows noted: the trailing ones too when the rows' trailing empty cells differ in count. */
  settled(): RaggedRows {
    const uneven = this.count === null;
    const lines = uneven ? [...this.sure.lines, ...this.trailing.lines].sort((a, b) => a - b) : this.sure.lines;
    return {
      header: this.named,
      rows: this.sure.rows + (uneven ? this.trailing.rows : 0),
      lines: lines.slice(0, RAGGED_LINES),
      ...(uneven && { uneven: true as const }),
    };
  }
}
