// A streamed CSV catalogue's rows through csv-parse's stream, each with the bytes it spans in the file when they are known.
import {
  type Catalogue,
  type CatalogueRow,
  CatalogueReadError,
  csvRowBuilder,
  detectDelimiter,
  HeaderLine,
  namedHeaders,
  type RaggedCells,
  type RaggedRows,
  RaggedTally,
  repeatedColumns,
} from './catalogue.js';

/** What a CSV pass learns besides its rows (the header row's columns). */
export interface CsvShape {
  headers: string[];
  repeated: Catalogue['repeated'];
  ragged?: RaggedRows;
}

/** Where each header's cells are, and how a whole row is built (repeated columns: the first non-empty value). */
class CsvLayout {
  readonly positions = new Map<string, number[]>();
  readonly build: ReturnType<typeof csvRowBuilder>;
  constructor(
    all: readonly string[],
    readonly repeated: Catalogue['repeated'],
  ) {
    all.forEach((h, k) => {
      const list = this.positions.get(h);
      if (list) list.push(k);
      else this.positions.set(h, [k]);
    });
    this.build = csvRowBuilder(all);
  }
}

/**
 * A CSV row whose `values` are built only when asked for; its repeated columns' conflicts counted by the first pass.
 * `start` and `end`: the file's bytes it was read from (its line break included), -1 when the pass cannot say.
 */
export class CsvRow implements CatalogueRow {
  private built: Record<string, string> | undefined;
  constructor(
    readonly line: number,
    private readonly record: readonly string[],
    private readonly layout: CsvLayout,
    readonly start: number,
    readonly end: number,
    readonly ragged?: RaggedCells,
  ) {}

  get values(): Record<string, string> {
    // A scratch copy of the repeated columns: their conflicts are the first pass's to count, once (countConflicts).
    this.built ??= this.layout.build(
      this.record,
      this.layout.repeated.map((r) => ({ ...r })),
    );
    return this.built;
  }

  cell(header: string): string {
    const at = this.layout.positions.get(header);
    if (!at) return '';
    for (const k of at) {
      const v = this.record[k] ?? '';
      if (v !== '') return v;
    }
    return '';
  }

  countConflicts(): void {
    if (this.layout.repeated.length > 0) this.layout.build(this.record, this.layout.repeated);
  }
}

/** Counts a streamed CSV row's repeated-column conflicts (the whole-file reader counts them as it builds rows). */
export function countConflicts(row: CatalogueRow): void {
  if (row instanceof CsvRow) row.countConflicts();
}

/**
 * The rows of CSV text in batches. Chunks of bytes are the file's own from its start (UTF-8 is checked, not decoded),
 * so csv-parse's byte count is where each row is in the file; text chunks give rows without their bytes. `lineOf`:
 * the line of the n-th row read (from 0), when the chunks hold only some of the file's rows.
 */
export async function* csvRows(
  file: string,
  chunks: AsyncIterable<string | Buffer>,
  shape: CsvShape,
  lineOf: (n: number) => number = (n) => n + 1,
): AsyncGenerator<CatalogueRow[]> {
  const { parse } = await import('csv-parse');
  const iterator = chunks[Symbol.asyncIterator]();
  // The delimiter is read off the header row (blank lines before it skipped), as the whole-file reader reads it.
  const head: (string | Buffer)[] = [];
  const header = new HeaderLine();
  let done = false;
  while (!done && header.ended === undefined) {
    const next = await iterator.next();
    if (next.done) done = true;
    else {
      head.push(next.value);
      header.add(typeof next.value === 'string' ? next.value : next.value.toString('utf8'));
    }
  }
  const parser = parse({
    delimiter: detectDelimiter(header.text),
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    // Bytes keep their byte-order mark (text lost it when decoded).
    bom: true,
  });
  const records: string[][] = [];
  const ends: number[] = [];
  // csv-parse hands each record on as it ends it, so its byte count is that record's end; checked by its count.
  let spans = true;
  let parsed = 0;
  let failure: Error | undefined;
  parser.on('data', (r: string[]) => {
    records.push(r);
    ends.push(parser.info.bytes);
    if (parser.info.records !== ++parsed) spans = false;
  });
  parser.on('error', (err: Error) => {
    failure = err;
  });
  const ended = new Promise<void>((resolve) => parser.on('end', resolve).on('error', () => resolve()));
  let layout: CsvLayout | undefined;
  // Whether a row's trailing empty cells line up is the whole file's to say: shape.ragged is settled after each batch.
  let tally: RaggedTally | undefined;
  let n = 0;
  let start = 0;
  const take = () => {
    if (failure) throw new CatalogueReadError(`${file} is not valid CSV: ${failure.message}`);
    const rows: CatalogueRow[] = [];
    const at = ends.splice(0);
    records.splice(0).forEach((record, i) => {
      const end = spans ? (at[i] as number) : -1;
      if (!layout) {
        const all = namedHeaders(record);
        shape.headers = [...new Set(all)];
        shape.repeated = repeatedColumns(all);
        tally = new RaggedTally(record);
        layout = new CsvLayout(all, shape.repeated);
      } else {
        const line = lineOf(n++);
        const cells = (tally as RaggedTally).note(line, record);
        rows.push(new CsvRow(line, record, layout, spans ? start : -1, end, cells));
      }
      start = end;
    });
    if (tally) shape.ragged = tally.settled();
    return rows;
  };
  const write = (chunk: string | Buffer) => {
    if (typeof chunk === 'string') spans = false;
    parser.write(chunk);
  };
  for (const chunk of head) write(chunk);
  while (!done) {
    const next = await iterator.next();
    if (next.done) break;
    write(next.value);
    const rows = take();
    if (rows.length > 0) yield rows;
  }
  parser.end();
  await ended;
  const rows = take();
  if (rows.length > 0) yield rows;
}
