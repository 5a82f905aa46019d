// A streamed CSV catalogue's rows through csv-parse's stream, each with the bytes it spans in the file when they are known.
import type { Options as CsvOptions } from 'csv-parse';
import { afterLead, type CsvRecordAt, csvLead, csvRecords, LEAD_SAMPLE } from './catalogue-csv-lead.js';
import { type ColumnMap, mappedBlanks } from './catalogue-columns.js';
import {
  type Catalogue,
  type CatalogueRow,
  CatalogueReadError,
  csvOptions,
  csvRowBuilder,
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
  /** Given: the columns the user mapped (--map), whose blank-named cells are no shifted ones (mappedBlanks). */
  mapped?: ColumnMap;
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

/** The chunks read so far, from the first, and the rest to read. */
class ChunksRead {
  readonly read: (string | Buffer)[] = [];
  /** The characters or bytes kept in `read`. */
  length = 0;
  done = false;
  private readonly iterator: AsyncIterator<string | Buffer>;
  constructor(chunks: AsyncIterable<string | Buffer>) {
    this.iterator = chunks[Symbol.asyncIterator]();
  }

  /** The next chunk (kept in `read` when `keep`), or undefined at the end. */
  async next(keep = true): Promise<string | Buffer | undefined> {
    const next = this.done ? undefined : await this.iterator.next();
    if (!next || next.done) {
      this.done = true;
      return undefined;
    }
    if (keep) {
      this.read.push(next.value);
      this.length += next.value.length;
    }
    return next.value;
  }

  /** Everything read so far, as one text or buffer. */
  joined(): string | Buffer {
    const read = this.read;
    return read.every((c) => typeof c !== 'string') ? Buffer.concat(read) : read.map(String).join('');
  }
}

/**
 * The lead (catalogue-csv-lead.ts) of the chunks, read on until they hold LEAD_SAMPLE whole rows or are all (a quoted
 * line break may run on). Parsed again only once the chunks read have doubled: a quote never closed costs a few passes
 * over the file, not one a chunk.
 */
async function leadOf(file: string, head: ChunksRead, options: CsvOptions): Promise<CsvRecordAt[]> {
  for (let parsed = 0; ; ) {
    if (head.done || head.length >= 2 * parsed) {
      parsed = head.length;
      const text = head.joined();
      try {
        const records = await csvRecords(text, options, 1 + LEAD_SAMPLE, head.done);
        if (head.done || records.length > LEAD_SAMPLE) return csvLead(records);
      } catch (err) {
        if (head.done || (err as { code?: string }).code !== 'CSV_QUOTE_NOT_CLOSED')
          throw new CatalogueReadError(`${file} is not valid CSV: ${(err as Error).message}`);
      }
    }
    await head.next();
  }
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
  const head = new ChunksRead(chunks);
  // The delimiter is read off the header row (blank lines before it skipped), as the whole-file reader reads it.
  const firstLine = new HeaderLine();
  while (firstLine.ended === undefined) {
    const chunk = await head.next();
    if (chunk === undefined) break;
    firstLine.add(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  }
  // Bytes keep their byte-order mark (text lost it when decoded).
  const options: CsvOptions = { ...csvOptions(firstLine.text), bom: true };
  const lead = await leadOf(file, head, options);
  const [header, ...leading] = lead;
  if (!header) return;
  const all = namedHeaders(header.record);
  shape.headers = [...new Set(all)];
  shape.repeated = repeatedColumns(all);
  // Whether a row's trailing empty cells line up is the whole file's to say: shape.ragged is settled after each batch.
  const tally = new RaggedTally(header.record, mappedBlanks(header.record, shape.mapped));
  shape.ragged = tally.settled();
  const layout = new CsvLayout(all, shape.repeated);
  // The rows after the lead (catalogue-csv-lead.ts says why).
  const parser = parse(afterLead(options, lead));
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
  for (const r of leading) {
    records.push(r.record);
    ends.push(r.bytes);
  }
  let n = 0;
  let start = header.bytes;
  const take = () => {
    if (failure) throw new CatalogueReadError(`${file} is not valid CSV: ${failure.message}`);
    const rows: CatalogueRow[] = [];
    const at = ends.splice(0);
    records.splice(0).forEach((record, i) => {
      const end = spans ? (at[i] as number) : -1;
      const line = lineOf(n++);
      const cells = tally.note(line, record);
      rows.push(new CsvRow(line, record, layout, spans ? start : -1, end, cells));
      start = end;
    });
    shape.ragged = tally.settled();
    return rows;
  };
  const write = (chunk: string | Buffer) => {
    if (typeof chunk === 'string') spans = false;
    parser.write(chunk);
  };
  for (const chunk of head.read.splice(0)) write(chunk);
  for (let chunk = await head.next(false); chunk !== undefined; chunk = await head.next(false)) {
    write(chunk);
    const rows = take();
    if (rows.length > 0) yield rows;
  }
  parser.end();
  await ended;
  const rows = take();
  if (rows.length > 0) yield rows;
}
