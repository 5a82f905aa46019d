// Display width from string-width 8 (combining marks, Tangut, Kana Extended), the table cli-table3 lays out
// with it, and wrapping and bounding of huge fields.
import { describe, expect, it } from 'vitest';
import { limitText, VIEW_LIMIT } from '../../src/output/terminal-cells.js';
import { recordView } from '../../src/output/record-view.js';
import { createRenderer } from '../../src/output/renderer.js';
import { displayWidth, truncateToWidth, wrapLine, wrapToWidth } from '../../src/output/text-width.js';
import { collector } from './output-helpers.js';

// Widths as the issue states them (a terminal draws a combining mark on its base letter).
const HINDI = 'नमस्ते'; // 3 columns
const THAI = 'สวัสดี'; // 4 letters, 2 combining marks: 4 columns
const TANGUT = '\u{17000}\u{17001}'; // 2 + 2
const KANA_EXT = '\u{1B11F}\u{1B122}'; // Kana Extended-A: 2 + 2

describe('displayWidth (string-width 8)', () => {
  it.each([
    [HINDI, 3],
    [THAI, 4],
    ['\u0E01\u0E34\u0E48', 1],
    [TANGUT, 4],
    [KANA_EXT, 4],
    ['漢字', 4],
    ['👨‍👩‍👧', 2],
    ['plain', 5],
  ])('%s is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it('cuts between graphemes, never inside a cluster', () => {
    expect(truncateToWidth(`${HINDI}${HINDI}`, 4)).toBe('नमस्ते…');
    expect(truncateToWidth(TANGUT, 3)).toBe('\u{17000}…');
  });
});

describe('table with combining and wide scripts (cli-table3 pads with the same widths)', () => {
  it('lines every row up', async () => {
    const out = collector();
    const renderer = await createRenderer({ format: 'table', out, tableColumns: ['product_name', 'id'], width: 80 });
    const names: [string, number][] = [
      [HINDI, 3],
      [THAI, 4],
      [TANGUT, 4],
      [KANA_EXT, 4],
      ['abc', 3],
    ];
    await renderer.write(names.map(([product_name], i) => ({ product_name, id: i + 1 })));
    // The column is as wide as its header (12); each name is followed by 12 - its known width spaces.
    const expected = [
      'product_name  id',
      '────────────  ──',
      ...names.map(([name, width], i) => `${name}${' '.repeat(12 - width)}  ${i + 1}`),
      '',
    ].join('\n');
    expect(out.text()).toBe(expected);
  });
});

/** A naive reference: units of known width, cut greedily into lines of at most `width` columns. */
function referenceLines(units: readonly string[], width: number, widthOf: Record<string, number>): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const ch of units) {
    const w = widthOf[ch]!;
    if (used + w > width) {
      lines.push(line);
      line = '';
      used = 0;
    }
    line += ch;
    used += w;
  }
  if (line) lines.push(line);
  return lines;
}

describe('wrapping a huge unbroken text', () => {
  it('gives exactly the right lines for 1 MB without a space', () => {
    const units = Array.from({ length: 350_000 }, () => ['a', 'b', '漢']).flat();
    const text = units.join(''); // 1,050,000 characters, 1.4 million columns
    const lines = wrapLine(text, 11);
    expect(lines).toEqual(referenceLines(units, 11, { a: 1, b: 1, 漢: 2 }));
    expect(lines.join('')).toBe(text);
  });

  it('keeps every grapheme whole across the pieces it is segmented in (combining marks, conjuncts, emoji)', () => {
    const kinds = ['e\u0301', 'स्ते', '👨‍👩‍👧', 'x', '\u{17000}'];
    const widthOf = { 'e\u0301': 1, स्ते: 1, '👨‍👩‍👧': 2, x: 1, '\u{17000}': 2 };
    // An irregular sequence, so grapheme ends fall at every offset of the 512-unit pieces.
    const units = Array.from({ length: 20_000 }, (_, i) => kinds[(i * 7 + (i >> 3)) % kinds.length]!);
    const lines = wrapLine(units.join(''), 13);
    expect(lines).toEqual(referenceLines(units, 13, widthOf));
  });

  it('stops after maxLines, marking the cut', () => {
    const lines = wrapToWidth('x'.repeat(1_000_000), 10, 3);
    expect(lines).toEqual(['x'.repeat(10), 'x'.repeat(10), `${'x'.repeat(9)}…`]);
  });
});

describe('a view shows a bounded part of a huge field', () => {
  it('limitText counts characters (code points), never splitting a pair', () => {
    expect(limitText('abc', 5)).toEqual({ text: 'abc', more: 0 });
    expect(limitText('😀😀😀', 2)).toEqual({ text: '😀😀', more: 1 });
    expect(limitText('x'.repeat(12), 10)).toEqual({ text: 'x'.repeat(10), more: 2 });
  });

  it('show: the first 10,000 characters, then how many more', () => {
    const description = 'y'.repeat(3_000_000);
    const view = recordView({ id: 'r1', description }, 100);
    const descriptionLines = view.split('\n').filter((l) => l.includes('y') || l.includes('more characters'));
    const shown = descriptionLines
      .filter((l) => !l.includes('more'))
      .map((l) => l.replace('description', '').trim())
      .join('');
    expect(shown).toBe('y'.repeat(VIEW_LIMIT));
    expect(descriptionLines.at(-1)!.trim()).toBe(`… (${3_000_000 - VIEW_LIMIT} more characters)`);
  });
});
