// The match pass rereads only some rows of a streamed CSV by their bytes: each row read that way is the row the whole
// read gives (same line, same cells), whatever the quoting, line breaks, byte-order mark or blank lines around it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvRow } from '../../src/match/catalogue-csv-stream.js';
import { RowSpans } from '../../src/match/catalogue-spans.js';
import { type CatalogueShape, catalogueRows } from '../../src/match/catalogue-stream.js';
import type { CatalogueRow } from '../../src/match/catalogue.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-match-spans-');
const HEADERS = ['sku', 'brand', 'name'];

async function readAll(file: string, spans?: RowSpans): Promise<CatalogueRow[]> {
  const shape: CatalogueShape = { headers: [], repeated: [] };
  const rows: CatalogueRow[] = [];
  for await (const batch of catalogueRows(file, shape, { hash: true, ...(spans && { spans }) })) rows.push(...batch);
  return rows;
}

const view = (r: CatalogueRow) => ({ line: r.line, cells: HEADERS.map((h) => r.cell?.(h)) });

/** A catalogue of `n` rows in the given shape: quoted cells with commas, quotes and line breaks, spaces to trim. */
function catalogue(n: number, eol: string, bom: boolean, lastEol: boolean): string {
  const rows = Array.from({ length: n }, (_, i) => {
    const name =
      i % 3 === 0 ? `"Kettle, ${i}""steel""${eol}line two"` : i % 3 === 1 ? `  Toaster ${i}  ` : `Lamp ${i}é`;
    return `S${i},${i % 2 ? 'Acme' : '"Brand ""B"""'},${name}`;
  });
  // Blank lines between some rows are not rows.
  const body = rows.map((r, i) => (i % 4 === 2 ? `${eol}${r}` : r)).join(eol);
  return `${bom ? '\ufeff' : ''}${HEADERS.join(',')}${eol}${body}${lastEol ? eol : ''}`;
}

describe("a streamed CSV read again by its rows' bytes", () => {
  for (const [eol, bom, lastEol] of [
    ['\n', false, true],
    ['\r\n', true, false],
    ['\n', true, false],
    ['\r\n', false, true],
  ] as const)
    it(`gives each chosen row as the whole read does (${JSON.stringify(eol)}, BOM ${bom}, last line break ${lastEol})`, async () => {
      const file = path.join(dir, `c-${eol.length}-${bom}-${lastEol}.csv`);
      writeFileSync(file, catalogue(40, eol, bom, lastEol));
      const whole = await readAll(file);
      expect(whole).toHaveLength(40);
      expect(whole.every((r) => r instanceof CsvRow && r.start >= 0 && r.end > r.start)).toBe(true);
      // Every third row, runs of neighbours among them, and the last row; then a run from the first row.
      const chosen = whole.filter((r) => r.line % 3 === 0 || r.line === 7 || r.line === 8 || r.line === 40);
      const spans = new RowSpans();
      spans.header((whole[0] as CsvRow).start);
      for (const r of chosen as CsvRow[]) spans.add(r.line, r.start, r.end);
      expect((await readAll(file, spans)).map(view)).toEqual(chosen.map(view));
      const run = new RowSpans();
      run.header((whole[0] as CsvRow).start);
      run.addRun((whole[0] as CsvRow).start, (whole[10] as CsvRow).start, 10);
      for (const r of whole.slice(20) as CsvRow[]) run.add(r.line, r.start, r.end);
      const expected = [...whole.slice(0, 10), ...whole.slice(20)].map(view);
      expect((await readAll(file, run)).map(view)).toEqual(expected);
    });

  it('a row that is no longer valid CSV when read again means the file changed in between', async () => {
    const file = path.join(dir, 'changed.csv');
    const text = catalogue(12, '\n', false, true);
    writeFileSync(file, text);
    const whole = (await readAll(file)) as CsvRow[];
    const spans = new RowSpans();
    spans.header((whole[0] as CsvRow).start);
    for (const r of whole) spans.add(r.line, r.start, r.end);
    // The same length, so every span still falls on the same bytes: one of them now opens a quote mid-field.
    writeFileSync(file, text.replace('Toaster 4', 'Toa"ter 4'));
    await expect(readAll(file, spans)).rejects.toThrow('changed while it was read');
    await expect(readAll(file)).rejects.toThrow('not valid CSV');
  });

  it('a file read as text (not UTF-8) has no spans, and spans are not used for it', async () => {
    const file = path.join(dir, 'latin.csv');
    writeFileSync(file, Buffer.from(`${HEADERS.join(',')}\nS1,Caf\xe9,Cr\xe8me\nS2,Acme,Lamp\n`, 'latin1'));
    const whole = await readAll(file);
    expect(whole.map((r) => (r as CsvRow).start)).toEqual([-1, -1]);
    const spans = new RowSpans();
    spans.header(0);
    spans.usable = false;
    expect((await readAll(file, spans)).map(view)).toEqual(whole.map(view));
  });
});
