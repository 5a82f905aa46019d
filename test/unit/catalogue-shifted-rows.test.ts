// What a CSV's whole file decides of its rows' cells (trailing empty cells line up only when every such row has as many),
// counted exactly; and the delimiter read off the header row after blank lines, however the chunks cut them.
import { describe, expect, it } from 'vitest';
import { type CsvShape, csvRows } from '../../src/match/catalogue-csv-stream.js';
import { RaggedTally } from '../../src/match/catalogue.js';

/** The tally of `rows` (cells as text split on commas) under `header`, and each row's cells as its scope sees them. */
function tallied(header: string, rows: string[]) {
  const tally = new RaggedTally(header.split(','));
  const cells = rows.map((r, i) => tally.note(i + 1, r.split(',')));
  return { file: tally.settled(), ragged: cells.map((c) => c?.cells ?? null) };
}

describe('the rows whose cells do not line up with the header', () => {
  it('rows ending with empty cells are not warned of when every such row has as many, yet never line up for scope', () => {
    const { file, ragged } = tallied('a,b,c', ['1,2,3,', '4,5,6,', '7,8,9,x', '1,2']);
    expect(file).toEqual({ header: 3, rows: 2, lines: [3, 4] });
    // A shifted row ending with a delimiter looks the same as these: their lot and date never exclude them.
    expect(ragged).toEqual([4, 4, 4, 2]);
  });

  it('are counted with them when the counts differ, however late: the first five lines in order, the rest counted', () => {
    // Rows 1, 3, 5, 7 end with one empty cell; 2, 4, 6 have a value past the header; 8 has the header's count.
    const rows = ['1,2,3,', '1,2,3,x', '1,2,3,', '1,2,3,x', '1,2,3,', '1,2,3,x', '1,2,3,', '1,2,3'];
    const { file, ragged } = tallied('a,b,c', rows);
    expect(file).toEqual({ header: 3, rows: 7, lines: [1, 2, 3, 4, 5], uneven: true });
    expect(ragged).toEqual([4, 4, 4, 4, 4, 4, 4, null]);
  });

  it("compares with the header's named cells: its blank last columns are the export's delimiters", () => {
    // Rows leave them out, keep them or keep one; a value in one is a shifted cell, whatever the row's count.
    expect(tallied('a,b,c,,', ['1,2,3', '4,5,6']).file.rows).toBe(0);
    expect(tallied('a,b,c,,', ['1,2,3,,', '4,5,6,,']).file.rows).toBe(0);
    expect(tallied('a,b,c,,', ['1,2,3,x', '1,2,3,,x', '1,2,3']).ragged).toEqual([4, 5, null]);
    const mixed = tallied('a,b,c,,', ['1,2,3', '1,2,3,,', '1,2,3,']);
    expect(mixed.file).toEqual({ header: 3, rows: 2, lines: [2, 3], uneven: true });
    expect(mixed.ragged).toEqual([null, 5, 4]);
  });

  it('a header with no name at all is compared whole', () => {
    expect(tallied(',,', ['1,2,3', '1,2']).ragged).toEqual([null, 2]);
  });
});

describe('the header row after blank lines, in chunks', () => {
  async function* chunks(parts: string[]) {
    for (const p of parts) yield p;
  }

  it.each([
    ['semicolons', ['\n', ' \r\n', '\r', '\nsku;e', 'an;name', '\r\n1;2;3\r\n'], ['sku', 'ean', 'name']],
    ['tabs', ['\n\n  ', '\n', 'sku\tean\tname\n1\t2\t3'], ['sku', 'ean', 'name']],
    ['one chunk', ['\n\nsku;ean;name\n1;2;3\n'], ['sku', 'ean', 'name']],
    ['the header the last line', ['\n', '\nsku;ean;name'], ['sku', 'ean', 'name']],
  ])('%s: its delimiter is read off it', async (_, parts, headers) => {
    const shape: CsvShape = { headers: [], repeated: [] };
    const rows: Record<string, string>[] = [];
    for await (const batch of csvRows('c.csv', chunks(parts), shape)) rows.push(...batch.map((r) => ({ ...r.values })));
    expect(shape.headers).toEqual(headers);
    expect(rows).toEqual(parts.join('').includes('1') ? [{ sku: '1', ean: '2', name: '3' }] : []);
  });
});
