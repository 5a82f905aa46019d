// A CSV whose rows end with a delimiter the header lacks (an ERP export): its header, and any first rows of an odd count
// of cells, are parsed on their own, and the rest from the line after them, so csv-parse builds no error per row. The
// rows, their lines, bytes and ragged verdicts are what they were, held whole and streamed, however the chunks cut the
// header; the speed is bench/catalogue-shapes.mjs.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CsvRow, type CsvShape, csvRows } from '../../src/match/catalogue-csv-stream.js';
import { type CatalogueShape, catalogueRows } from '../../src/match/catalogue-stream.js';
import { type CatalogueRow, readCatalogue } from '../../src/match/catalogue.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-trailing-delimiter-', { scope: 'file' });

// A blank line, then a header with a quoted line break in a name; each data row is one line (blank lines between).
const HEAD = '\r\nsku,ean,"product\r\nname",lot\r\n';
const NAME = 'product\r\nname';
const HEADERS = ['sku', 'ean', NAME, 'lot'];
const ROW = {
  S1: 'S1,4006381333931,Kettle,L1,\r\n',
  S2: '\r\nS2,,"Toaster, chrome",L2,\r\n',
  S3: 'S3,,Lamp,L3,x\r\n',
  S4: 'S4,,"Fan ""Big""",L4,\r\n',
  S5: 'S5,,Heater\r\n',
};
/** Each row's cells under the header's names and its own cells' verdict, as written out by hand. */
const CELLS = {
  S1: { cells: ['S1', '4006381333931', 'Kettle', 'L1'], ragged: { cells: 5, header: 4, trailing: true } },
  S2: { cells: ['S2', '', 'Toaster, chrome', 'L2'], ragged: { cells: 5, header: 4, trailing: true } },
  S3: { cells: ['S3', '', 'Lamp', 'L3'], ragged: { cells: 5, header: 4 } },
  S4: { cells: ['S4', '', 'Fan "Big"', 'L4'], ragged: { cells: 5, header: 4, trailing: true } },
  S5: { cells: ['S5', '', 'Heater', ''], ragged: { cells: 3, header: 4 } },
};
type Sku = keyof typeof ROW;

// S1, S2 and S4 end with one empty cell each: they line up; S3 holds a value past the header, S5 falls short. First,
// S1 is a row of the commonest count (5 cells); S5 is not, and is parsed with the header.
const FILES: { name: string; order: Sku[]; ragged: number[] }[] = [
  { name: 'its first row of the commonest count', order: ['S1', 'S2', 'S3', 'S4', 'S5'], ragged: [3, 5] },
  { name: 'its first row short', order: ['S5', 'S1', 'S2', 'S3', 'S4'], ragged: [1, 4] },
];

const shapeOf = (f: (typeof FILES)[number]) => {
  const text = HEAD + f.order.map((s) => ROW[s]).join('');
  const expected = f.order.map((s, k) => ({ line: k + 1, ...CELLS[s] }));
  return { text, expected, ragged: { header: 4, rows: 2, lines: f.ragged } };
};

const view = (r: CatalogueRow) => ({
  line: r.line,
  cells: HEADERS.map((h) => r.values[h]),
  ragged: r.ragged,
});

function written(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

async function streamed(file: string) {
  const shape: CatalogueShape = { headers: [], repeated: [] };
  const rows: CatalogueRow[] = [];
  for await (const batch of catalogueRows(file, shape)) rows.push(...batch);
  return { shape, rows };
}

async function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe.each(FILES)('a CSV whose rows end with a delimiter, $name', (f) => {
  const { text, expected, ragged } = shapeOf(f);

  it('held whole: the same rows, lines and ragged verdicts', async () => {
    const catalogue = await readCatalogue(written('held.csv', text));
    expect(catalogue.headers).toEqual(HEADERS);
    expect(catalogue.rows.map(view)).toEqual(expected);
    expect(catalogue.ragged).toEqual(ragged);
  });

  it('streamed: the same rows, lines, verdicts, and the bytes of each row (blank lines before it included)', async () => {
    const { shape, rows } = await streamed(written('streamed.csv', text));
    expect(shape.headers).toEqual(HEADERS);
    expect(shape.ragged).toEqual(ragged);
    expect(rows.map(view)).toEqual(expected);
    expect((rows as CsvRow[]).map((r) => text.slice(r.start, r.end))).toEqual(f.order.map((s) => ROW[s]));
  });

  it.each([1, 2, 5, 13, 64])(
    'in chunks of %i bytes, the header cut anywhere: the same rows and bytes',
    async (size) => {
      const shape: CsvShape = { headers: [], repeated: [] };
      const rows: CatalogueRow[] = [];
      for await (const batch of csvRows('c.csv', pieces(Buffer.from(`\ufeff${text}`), size), shape))
        rows.push(...batch);
      expect(shape.headers).toEqual(HEADERS);
      expect(shape.ragged).toEqual(ragged);
      expect(rows.map(view)).toEqual(expected);
      // The byte-order mark is 3 bytes before the text.
      expect((rows as CsvRow[]).map((r) => text.slice(r.start - 3, r.end - 3))).toEqual(f.order.map((s) => ROW[s]));
    },
  );

  it('in UTF-16 with its byte-order mark, held and streamed: the same rows', async () => {
    const file = written('utf16.csv', Buffer.from(`\ufeff${text}`, 'utf16le'));
    expect((await readCatalogue(file)).rows.map(view)).toEqual(expected);
    const { shape, rows } = await streamed(file);
    expect(rows.map(view)).toEqual(expected);
    expect(shape.ragged).toEqual(ragged);
  });
});

it('rows ending with different counts of empty cells are ragged together (uneven), on a semicolon header', async () => {
  const text = 'sku;ean\nA;1;\nB;2;;\nC;3\n';
  const expected = [
    { line: 1, cells: ['A', '1'], ragged: { cells: 3, header: 2, trailing: true } },
    { line: 2, cells: ['B', '2'], ragged: { cells: 4, header: 2, trailing: true } },
    { line: 3, cells: ['C', '3'], ragged: undefined },
  ];
  const file = written('uneven.csv', text);
  const ragged = { header: 2, rows: 2, lines: [1, 2], uneven: true };
  const held = await readCatalogue(file);
  const pick = (r: CatalogueRow) => ({ line: r.line, cells: [r.values.sku, r.values.ean], ragged: r.ragged });
  expect(held.rows.map(pick)).toEqual(expected);
  expect(held.ragged).toEqual(ragged);
  const { shape, rows } = await streamed(file);
  expect(rows.map(pick)).toEqual(expected);
  expect(shape.ragged).toEqual(ragged);
});

describe('csv-parse builds no more errors for more rows of one count of cells, whatever the header and first row', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** How many CsvErrors csv-parse made while `read` ran (each captures a stack trace: the cost measured). */
  async function csvErrorsIn(read: () => Promise<unknown>): Promise<number> {
    const capture = vi.spyOn(Error, 'captureStackTrace');
    capture.mockClear();
    await read();
    return capture.mock.calls.filter(([, by]) => (by as { name?: string } | undefined)?.name === 'CsvError').length;
  }

  /** The errors of reading a file of `first` then `n` rows ending with `end`, held whole and streamed. */
  async function errors(first: string, end: string, n: number) {
    const rows = Array.from({ length: n }, (_, i) => `S${i},,Name ${i},L${i}${end}\n`);
    const file = written(`rows-${n}.csv`, `sku,ean,name,lot\n${first}${rows.join('')}`);
    const count = n + (first === '' ? 0 : 1);
    return {
      held: await csvErrorsIn(async () => expect((await readCatalogue(file)).rows).toHaveLength(count)),
      streamed: await csvErrorsIn(async () => expect((await streamed(file)).rows).toHaveLength(count)),
    };
  }

  it.each([
    ['every row ending with a delimiter', '', ','],
    ['a shifted first row, then plain rows', 'S,,Name, with a comma,L\n', ''],
    ['a shifted first row, then rows ending with a delimiter', 'S,,Name, with a comma,L,\n', ','],
  ])('%s: as many with 1,000 rows as with 200, held whole and streamed', async (_, first, end) => {
    expect(await errors(first, end, 1000)).toEqual(await errors(first, end, 200));
  });
});
