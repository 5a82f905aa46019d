// Loads cli-table3 (for a terminal table only) measuring with our string-width, and draws borderless rows with it.
//
// cli-table3 0.6.5 requires string-width ^4, whose tables count Devanagari and Thai combining marks as
// columns ("नमस्ते" is 6, not 3) and Tangut and Kana Extended as 1, not 2: it would pad those rows out of
// line. It is loaded here through Node's require, with its string-width entry in the require cache set to
// the string-width 8 that text-width.ts measures with, so cutting (ours) and padding (its) agree. Loading
// it from node_modules rather than from the bundle is what lets the cache entry apply.
import { createRequire, Module } from 'node:module';
import type Table from 'cli-table3';
import stringWidth from 'string-width';

type TableConstructor = typeof Table;
let loaded: TableConstructor | undefined;

function loadTable(): TableConstructor {
  if (loaded) return loaded;
  const load = createRequire(import.meta.url);
  const tablePath = load.resolve('cli-table3');
  const widthPath = createRequire(tablePath).resolve('string-width');
  if (!load.cache[widthPath]) {
    const entry = new Module(widthPath);
    entry.filename = widthPath;
    entry.exports = stringWidth;
    entry.loaded = true;
    load.cache[widthPath] = entry;
  }
  loaded = load(tablePath) as TableConstructor;
  return loaded;
}

/** Two spaces between columns, a rule of `─` under the header, no other border. */
const CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '─',
  'mid-mid': '  ',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/**
 * The lines of `rows` (cells already cleaned, cut to their widths and coloured) at `widths`, with `head`
 * and its rule above them when given; trailing spaces trimmed.
 */
export function drawRows(rows: readonly string[][], widths: readonly number[], head?: readonly string[]): string[] {
  const TableClass = loadTable();
  const table = new TableClass({
    chars: CHARS,
    head: head ? [...head] : [],
    colWidths: [...widths],
    // No colour of its own (chalk colours our cells), no padding: the separators are the gap.
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  table.push(...rows.map((row) => [...row]));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
}
