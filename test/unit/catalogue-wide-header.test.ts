// A catalogue with thousands of columns: its repeated columns found, and the work done linear in the header's width.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRowBuilder, readCatalogue, type RepeatedColumn, repeatedColumns } from '../../src/match/catalogue.js';
import { RecallIndex } from '../../src/match/recall-index.js';
import { readCensus } from '../../src/match/stream-matches.js';
import { reportCatalogue } from '../../src/jobs/matching/match-rows.js';
import { tempDir } from '../helpers/temp-dir.js';

const WIDTH = 5_000;

/**
 * 5,000 columns named c1..c5000, but: `ean` at 1, 2500 and 5000; `name` at 2 and 4999; a blank name at 3 (read
 * `column 3`) and a header written `column 3` at 10; a blank at 4 (`column 4`, once).
 */
function wideHeader(): string[] {
  const header = Array.from({ length: WIDTH }, (_, k) => `c${k + 1}`);
  const put = (position: number, name: string) => {
    header[position - 1] = name;
  };
  for (const p of [1, 2500, 5000]) put(p, 'ean');
  for (const p of [2, 4999]) put(p, 'name');
  put(3, '');
  put(10, 'column 3');
  put(4, '');
  return header;
}

/** A data row of the wide header: `cells` maps 1-based positions to values, every other cell empty. */
function wideRow(cells: Record<number, string>): string[] {
  return Array.from({ length: WIDTH }, (_, k) => cells[k + 1] ?? '');
}

/**
 * Row 1: `ean` 3934438890919 at 1 and 4006381333931 at 5000 (they differ), `name` Kettle twice (the same).
 * Row 2: `ean` empty at 1 and 3934438890919 at 2500 (no clash), `name` A and B (they differ), `column 3` x twice.
 */
const ROWS = [
  wideRow({ 1: '3934438890919', 2: 'Kettle', 5000: '4006381333931', 4999: 'Kettle' }),
  wideRow({ 2500: '3934438890919', 2: 'A', 4999: 'B', 3: 'x', 10: 'x' }),
];

/** Written by hand from the header above: the headers that repeat, in the order they first appear. */
const REPEATED: RepeatedColumn[] = [
  { header: 'ean', positions: [1, 2500, 5000], conflicts: 1 },
  { header: 'name', positions: [2, 4999], conflicts: 1 },
  { header: 'column 3', positions: [3, 10], conflicts: 0 },
];

const WARNINGS = [
  "catalogue column 'ean' appears 3 times (columns 1, 2500, 5000): each row reads its first non-empty value; in 1 row they differ and only the first is read",
  "catalogue column 'name' appears 2 times (columns 2, 4999): each row reads its first non-empty value; in 1 row they differ and only the first is read",
  "catalogue column 'column 3' appears 2 times (columns 3, 10): each row reads its first non-empty value",
];

function wideFile(): string {
  const file = path.join(tempDir('rf-wide-'), 'wide.csv');
  writeFileSync(file, `${[wideHeader(), ...ROWS].map((r) => r.join(',')).join('\n')}\n`);
  return file;
}

/** `items` behind a proxy that counts reads of its elements, and throws once they pass `budget` (no long wait). */
function counting<T>(items: T[], budget: number): { list: T[]; reads: () => number } {
  let reads = 0;
  const list = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key) && ++reads > budget)
        throw new Error(`more than ${budget} reads of a list of ${target.length}`);
      return Reflect.get(target, key, receiver);
    },
  });
  return { list, reads: () => reads };
}

describe('a catalogue with thousands of columns', () => {
  it('finds the repeated columns of a 5,000-column header and says so, whole or streamed', async () => {
    const file = wideFile();
    const whole = await readCatalogue(file);
    expect(whole.repeated).toEqual(REPEATED);
    // Each name once: two more `ean`, one more `name` and one more `column 3` than distinct headers.
    expect(whole.headers).toHaveLength(WIDTH - 4);
    expect(whole.columns.gtin).toBe('ean');
    expect(whole.rows.map((r) => [r.values.ean, r.values.name, r.values['column 3']])).toEqual([
      ['3934438890919', 'Kettle', ''],
      ['3934438890919', 'A', 'x'],
    ]);
    const streamed = await readCensus(file, {}, new RecallIndex());
    expect(streamed.repeated).toEqual(REPEATED);
    const warned: string[] = [];
    reportCatalogue(whole, [], { warn: (line: string) => void warned.push(line) });
    expect(warned).toEqual(WARNINGS);
  });

  it("reads each header of the reproduction's 30,001 a bounded number of times to find repeats", () => {
    // The fuzz report's file: c0..c29999 then ean, none repeated. Scanning the row once per header read it 9e8 times.
    const names = [...Array.from({ length: 30_000 }, (_, i) => `c${i}`), 'ean'];
    const { list, reads } = counting(names, 3 * names.length);
    expect(repeatedColumns(list)).toEqual([]);
    expect(reads()).toBeLessThanOrEqual(3 * names.length);
  });

  it('counts a row clashing in 2,500 repeated columns with one pass over them', () => {
    // h1..h2500, then h1..h2500 again: every header twice; the row holds a in the first and b in the second of each.
    const half = Array.from({ length: 2_500 }, (_, i) => `h${i + 1}`);
    const all = [...half, ...half];
    const repeated = half.map((header, i) => ({ header, positions: [i + 1, i + 2_501], conflicts: 0 }));
    const { list, reads } = counting(repeated, 3 * repeated.length);
    const values = csvRowBuilder(all)([...half.map(() => 'a'), ...half.map(() => 'b')], list);
    expect(values.h1).toBe('a');
    expect(values.h2500).toBe('a');
    expect(repeated.every((r) => r.conflicts === 1)).toBe(true);
    expect(reads()).toBeLessThanOrEqual(3 * repeated.length);
  });
});
