// Reads a product catalogue (CSV with a header, delimiter and BOM detected, or JSON lines) into rows.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Options as CsvOptions } from 'csv-parse';
import { mappedBlanks, resolveColumns, type ColumnMap } from './catalogue-columns.js';
import { afterLead, type CsvRecordAt, csvLead, csvRecords, LEAD_SAMPLE } from './catalogue-csv-lead.js';
import { decodeCatalogue } from './catalogue-encoding.js';
import { CatalogueReadError, jsonArrayError, readError } from './catalogue-errors.js';
import { type RaggedCells, type RaggedRows, RaggedTally } from './catalogue-ragged.js';

export { decodeCatalogue, decodeWindows1252, encodingOf, withoutUtf8Bom } from './catalogue-encoding.js';
export { CatalogueChangedError, CatalogueReadError, readError } from './catalogue-errors.js';
export { type RaggedCells, type RaggedRows, RaggedTally } from './catalogue-ragged.js';

export interface CatalogueRow {
  /** 1 for the first data row. */
  line: number;
  /** Every column of the row, as text, in the catalogue's order. */
  values: Record<string, string>;
  /** One column's text without building `values` (a streamed CSV row: most rows are read for a few columns only). */
  cell?(header: string): string;
  /** A CSV row whose cells may not line up with its header's (a comma in an unquoted name): its cells may be others'. */
  readonly ragged?: RaggedCells;
}

/**
 * The prototype of every row's values: nothing of Object's above it, so a header named "__proto__" or "constructor" is
 * a column like any other. Values made from it keep V8's fast properties, where Object.create(null) makes each row a
 * dictionary: 26 MB more for 100,000 rows of five columns (measured 2026-11-28).
 */
const ROW_VALUES: object = Object.freeze(Object.create(null));

/** An empty row of values (see ROW_VALUES). */
export const rowValues = (): Record<string, string> => Object.create(ROW_VALUES);

/** One column's text ('' when the row lacks it). */
export function cellOf(row: CatalogueRow, header: string): string {
  return row.cell ? row.cell(header) : (row.values[header] ?? '');
}

/** A header that appears more than once: each row reads the first non-empty value among its columns. */
export interface RepeatedColumn {
  header: string;
  /** 1-based positions of its columns in the header row. */
  positions: number[];
  /** Rows where two of its columns hold different non-empty values (the first one is kept). */
  conflicts: number;
}

export interface Catalogue {
  /** The path as given, for messages. */
  file: string;
  headers: string[];
  columns: ColumnMap;
  rows: CatalogueRow[];
  repeated: RepeatedColumn[];
  /** Set when the file was not UTF-8 and was read as Windows-1252. */
  readAs?: 'windows-1252';
  /** A CSV's rows with another count of cells than the header (set when there are any). */
  ragged?: RaggedRows;
  /** sha256 of the bytes read, in hex (set by readCatalogue): the report's provenance names the file these rows came from. */
  sha256?: string;
}

/** The delimiter that splits the header best, among comma, semicolon and tab (quotes respected). */
export function detectDelimiter(firstLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const d of [',', ';', '\t']) {
    let count = 0;
    let quoted = false;
    for (const ch of firstLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) count++;
    }
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

/** The header row of CSV text read in pieces: its first line with more than white space on it (blank lines skipped). */
export class HeaderLine {
  private line = '';
  private filled = false;
  /** The header row, once its line has ended. */
  ended: string | undefined;

  add(text: string): this {
    let from = 0;
    while (this.ended === undefined) {
      const nl = text.indexOf('\n', from);
      const part = text.slice(from, nl < 0 ? undefined : nl);
      this.line += part;
      this.filled ||= /\S/.test(part);
      if (nl < 0) break;
      if (this.filled) this.ended = this.line;
      else this.line = '';
      from = nl + 1;
    }
    return this;
  }

  /** The header row, ended or not ('' when no line has more than white space yet). */
  get text(): string {
    return this.ended ?? (this.filled ? this.line : '');
  }
}

/**
 * A JSON value as the cell's text. A list of plain values is each of them, joined by ", " (`["1234","1235"]` is two
 * lots). A number JSON.parse may have rounded (123456789012345678 is read 123456789012345680) is marked "≈": no code a
 * row can be proved by.
 */
export function cellText(value: unknown, where = 'the catalogue'): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return rounded(value) ? `≈${value}` : String(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object'))
    return value.map((v) => cellText(v, where)).join(', ');
  try {
    return JSON.stringify(value);
  } catch (err) {
    // A value nested thousands deep (a hostile file) overflows the stack: a line to mend, not a crash.
    if (err instanceof RangeError) throw new CatalogueReadError(`${where}: a value nested too deep to read`);
    throw err;
  }
}

/** An integer past 2^53, or a fraction of 16 digits or more, or written with an exponent: maybe not the file's digits. */
const rounded = (n: number) =>
  Number.isInteger(n) ? !Number.isSafeInteger(n) : /e/i.test(String(n)) || String(n).replace(/\D/g, '').length >= 16;

/** A catalogue's content, before its columns are resolved. */
type Parsed = Pick<Catalogue, 'headers' | 'rows' | 'repeated' | 'ragged'>;

function readJsonl(file: string, content: string): Parsed {
  const headers = new Set<string>();
  const rows: CatalogueRow[] = [];
  const lines = content.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new CatalogueReadError(`${file}, line ${i + 1}: not a JSON object`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new CatalogueReadError(`${file}, line ${i + 1}: not a JSON object`);
    }
    // Header names are data: "constructor" or "__proto__" must be a column like any other, never Object's own.
    const values = rowValues();
    for (const [k, v] of Object.entries(parsed)) {
      headers.add(k);
      values[k] = cellText(v, `${file}, line ${i + 1}`);
    }
    rows.push({ line: rows.length + 1, values });
  });
  // JSON objects cannot repeat a key (the parser keeps the last).
  return { headers: [...headers], rows, repeated: [] };
}

/** csv-parse's options for a catalogue, its delimiter read off the header row's text. */
export function csvOptions(headerText: string): CsvOptions {
  return { delimiter: detectDelimiter(headerText), relax_column_count: true, skip_empty_lines: true, trim: true };
}

async function readCsv(file: string, content: string, mapped: ColumnMap): Promise<Parsed> {
  const { parse } = await import('csv-parse/sync');
  const options = csvOptions(new HeaderLine().add(content).text);
  let lead: CsvRecordAt[];
  let rest: string[][];
  try {
    // The header and any first rows of an odd count of cells on their own (catalogue-csv-lead.ts says why).
    lead = csvLead(await csvRecords(content, options, 1 + LEAD_SAMPLE));
    rest = lead.length > 0 ? parse(content, afterLead(options, lead)) : [];
  } catch (err) {
    throw new CatalogueReadError(`${file} is not valid CSV: ${(err as Error).message}`);
  }
  const [first = [], ...data] = lead.map((r) => r.record);
  for (const record of rest) data.push(record);
  const all = namedHeaders(first);
  const repeated = repeatedColumns(all);
  const build = csvRowBuilder(all);
  const tally = new RaggedTally(first, mappedBlanks(first, mapped));
  const rows = data.map((record, i): CatalogueRow => {
    const cells = tally.note(i + 1, record);
    return { line: i + 1, values: build(record, repeated), ...(cells && { ragged: cells }) };
  });
  const ragged = tally.settled();
  return { headers: [...new Set(all)], rows, repeated, ...(ragged.rows > 0 && { ragged }) };
}

/** A header row with each blank name given its position (`column 3`): two blanks are two columns, not one repeated. */
export function namedHeaders(record: readonly string[]): string[] {
  return record.map((h, k) => (h === '' ? `column ${k + 1}` : h));
}

/**
 * The headers that appear more than once, with their positions (conflicts counted as rows are built). One pass: a
 * header row of 30,000 columns scanned once for each header took minutes before any request, in one synchronous run
 * that not even SIGTERM could stop.
 */
export function repeatedColumns(all: readonly string[]): RepeatedColumn[] {
  const positions = new Map<string, number[]>();
  for (let k = 0; k < all.length; k++) {
    const header = all[k] as string;
    const list = positions.get(header);
    if (list) list.push(k + 1);
    else positions.set(header, [k + 1]);
  }
  const repeated: RepeatedColumn[] = [];
  // A Map keeps its keys in the order first set: the headers in the order they first appear.
  for (const [header, at] of positions) if (at.length > 1) repeated.push({ header, positions: at, conflicts: 0 });
  return repeated;
}

/** A CSV record as a row's values under the header row `all`; a repeated header reads its first non-empty value. */
export function csvRowBuilder(all: readonly string[]) {
  return (record: readonly string[], repeated: RepeatedColumn[]): Record<string, string> => {
    const values = rowValues();
    if (repeated.length === 0) {
      for (let k = 0; k < all.length; k++) values[all[k] as string] = record[k] ?? '';
      return values;
    }
    const clashed = new Set<string>();
    all.forEach((h, k) => {
      const value = record[k] ?? '';
      const before = values[h];
      // A repeated header (an ERP's second `ean`, often empty): the first non-empty value is read.
      if (before === undefined || before === '') values[h] = value;
      else if (value !== '' && value !== before) clashed.add(h);
    });
    // One pass over the repeated columns, not a search of them for each clash: a row may clash in thousands.
    if (clashed.size > 0) for (const r of repeated) if (clashed.has(r.header)) r.conflicts++;
    return values;
  };
}

/**
 * JSON lines when the name says so or the text (`start`: its first characters) opens with `{`; CSV with a header row
 * otherwise. A JSON array is refused: match reads JSON one object a line.
 */
export function catalogueKind(file: string, start: string): 'jsonl' | 'csv' {
  const text = start.trimStart().slice(0, 64);
  const array = jsonArrayError(file, text);
  if (array) throw array;
  return /\.(jsonl|ndjson)$/i.test(file) || text.startsWith('{') ? 'jsonl' : 'csv';
}

/** Reads the whole catalogue: the rows, their columns found, the bytes' sha256. */
export async function readCatalogue(file: string, mapped: ColumnMap = {}): Promise<Catalogue> {
  // Read once: every row is kept for the index anyway (catalogue-stream.ts reads it as a stream for `match`).
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    throw readError(file, err);
  }
  const { text: content, readAs } = decodeCatalogue(file, bytes);
  // Its first characters only: trimming a large file's text would copy all of it.
  const at = Math.max(0, content.search(/\S/));
  const jsonl = catalogueKind(file, content.slice(at, at + 64)) === 'jsonl';
  const { headers, rows, repeated, ragged } = jsonl ? readJsonl(file, content) : await readCsv(file, content, mapped);
  if (headers.length === 0) throw new CatalogueReadError(`the catalogue ${file} is empty`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const columns = resolveColumns(headers, mapped);
  return { file, headers, columns, rows, repeated, ...(ragged && { ragged }), ...(readAs && { readAs }), sha256 };
}
