// Where csv-parse starts a CSV's rows: after its header and any first rows of an odd count of cells, parsed alone.
//
// csv-parse builds an error (a stack trace, a JSON copy of its state and the record) for every record whose count of
// cells differs from the first record it parses, relax_column_count or not. So the header, and any first rows of
// another count of cells than most of the first LEAD_SAMPLE, are parsed on their own (the lead), and the rest from the
// line after them (`from_line`): the first record csv-parse compares with is a row of the commonest count. With the
// header first, every row of an export that ends each row with a delimiter cost an error (up to 5 times slower); with
// the first row first, a shifted first row would make every other row cost one (bench/catalogue-shapes.mjs). The
// lead's own parse costs at most LEAD_SAMPLE of them.
import type { Options } from 'csv-parse';

/** Rows read to find the commonest count of cells. */
export const LEAD_SAMPLE = 64;

/** A record with the line it ends on and the bytes read up to its end (its line break included). */
export interface CsvRecordAt {
  record: string[];
  line: number;
  bytes: number;
}

/**
 * csv-parse's first `count` records of `text`. `whole` false: `text` is the start of a file, and a record that ends
 * where it ends is left out (it may go on past it).
 */
export async function csvRecords(
  text: string | Buffer,
  options: Options,
  count: number,
  whole = true,
): Promise<CsvRecordAt[]> {
  const { parse } = await import('csv-parse/sync');
  type Read = { record: string[]; info: { lines: number; bytes: number } };
  const read = parse(text, { ...options, to: count, info: true }) as unknown as Read[];
  const records = read.map(({ record, info }) => ({ record, line: info.lines, bytes: info.bytes }));
  if (!whole && records.at(-1)?.bytes === Buffer.byteLength(text)) records.pop();
  return records;
}

/**
 * The lead of `all` (the header, then rows): the header and the rows before the first of the commonest count. The
 * header is the first record with text: lines of white space or bare delimiters before it (csv-parse skips only empty
 * lines) are no header, as the delimiter was read off the first line with text (HeaderLine).
 */
export function csvLead(all: readonly CsvRecordAt[]): CsvRecordAt[] {
  const start = all.findIndex((r) => r.record.some((cell) => cell.trim() !== ''));
  const records = start < 0 ? [] : all.slice(start);
  const counts = new Map<number, number>();
  for (const { record } of records.slice(1)) counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  const first = records.findIndex((r, k) => k > 0 && counts.get(r.record.length) === most);
  return records.slice(0, first < 0 ? undefined : first);
}

/** csv-parse's options for the rows after the lead (its last record ends the line before them). */
export function afterLead(options: Options, lead: readonly CsvRecordAt[]): Options {
  return { ...options, from_line: (lead.at(-1)?.line ?? 0) + 1 };
}
