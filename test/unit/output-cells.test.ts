// Cell formatting and display width: the building blocks of the csv and table renderers.
import { describe, expect, it } from 'vitest';
import { csvCell, guardFormula } from '../../src/output/cells.js';
import { cleanForTerminal, tableCell } from '../../src/output/terminal-cells.js';
import { FORMATS, isFormat } from '../../src/output/renderer.js';
import { displayWidth, padToWidth, truncateToWidth, wrapToWidth } from '../../src/output/text-width.js';

describe('csvCell', () => {
  it.each([
    ['text', 'text'],
    [42, '42'],
    [-5, '-5'],
    [true, 'true'],
    [null, ''],
    [undefined, ''],
    [[], ''],
    [['a', 'b'], 'a; b'],
    [[1, 'a'], '[1,"a"]'],
    [[{ a: 1 }], '[{"a":1}]'],
    [{ a: [1, 2] }, '{"a":[1,2]}'],
  ])('%j -> %j', (value, expected) => {
    expect(csvCell(value, true)).toBe(expected);
  });

  it('guards strings starting with = + - @ tab CR, and joined arrays, only when asked', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}x`, true)).toBe(`'${start}x`);
      expect(csvCell(`${start}x`, false)).toBe(`${start}x`);
    }
    expect(csvCell(['=cmd', 'x'], true)).toBe("'=cmd; x");
    expect(csvCell('a=b', true)).toBe('a=b');
    expect(guardFormula('')).toBe('');
  });
});

describe('tableCell', () => {
  it('joins arrays with ", ", shows objects as JSON and newlines as spaces', () => {
    expect(tableCell(['a', 1, null, { b: 2 }])).toBe('a, 1, , {"b":2}');
    expect(tableCell('one\ntwo\r\nthree\tfour')).toBe('one two three four');
    expect(tableCell(null)).toBe('');
  });

  it('removes controls, bidi overrides and zero-width characters but keeps emoji sequences', () => {
    expect(cleanForTerminal('a\u001b[2Jb\u202e\u200bc\u00ad')).toBe('a[2Jbc');
    expect(cleanForTerminal('👨‍👩‍👧 ❤️ 🇫🇷')).toBe('👨‍👩‍👧 ❤️ 🇫🇷');
  });
});

describe('displayWidth and truncateToWidth', () => {
  it.each([
    ['abc', 3],
    ['日本語', 6],
    ['한국어', 6],
    ['ｆｕｌｌ', 8],
    ['😀', 2],
    ['🫨', 2],
    ['👨‍👩‍👧', 2],
    ['🇫🇷', 2],
    ['❤️', 2],
    ['e\u0301', 1],
    ['\u001b[31mred\u001b[39m', 3],
  ])('%j is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it('pads to display columns, not code units, and never cuts', () => {
    expect(padToWidth('ab', 4)).toBe('ab  ');
    expect(padToWidth('日本', 6)).toBe('日本  ');
    expect(padToWidth('😀', 3)).toBe('😀 ');
    expect(padToWidth('\u001b[31mred\u001b[39m', 5)).toBe('\u001b[31mred\u001b[39m  ');
    expect(padToWidth('toolong', 3)).toBe('toolong');
  });

  it('cuts at grapheme boundaries with …, never wider than asked', () => {
    expect(truncateToWidth('abcdef', 4)).toBe('abc…');
    expect(truncateToWidth('abcd', 4)).toBe('abcd');
    expect(truncateToWidth('日本語テキスト', 6)).toBe('日本…');
    expect(truncateToWidth('日本語テキスト', 5)).toBe('日本…');
    expect(truncateToWidth('a😀b', 3)).toBe('a…');
    expect(truncateToWidth('👨‍👩‍👧👨‍👩‍👧', 3)).toBe('👨‍👩‍👧…');
    expect(truncateToWidth('abc', 1)).toBe('…');
    expect(truncateToWidth('abc', 0)).toBe('');
    for (let w = 1; w < 12; w++)
      expect(displayWidth(truncateToWidth('電気ケトル 😀 recall', w))).toBeLessThanOrEqual(w);
  });
});

describe('wrapToWidth', () => {
  it('wraps at spaces, cuts words wider than a line, and marks a cut after maxLines with …', () => {
    expect(wrapToWidth('one two three four', 9, 5)).toEqual(['one two', 'three', 'four']);
    expect(wrapToWidth('  spaced   out  ', 20, 5)).toEqual(['spaced out']);
    expect(wrapToWidth('abcdefghij xy', 4, 5)).toEqual(['abcd', 'efgh', 'ij', 'xy']);
    expect(wrapToWidth('日本語テキスト', 5, 5)).toEqual(['日本', '語テ', 'キス', 'ト']);
    expect(wrapToWidth('one two three four', 9, 2)).toEqual(['one two', 'three…']);
    expect(wrapToWidth('aaaa bbbb cccc', 4, 2)).toEqual(['aaaa', 'bbb…']);
    expect(wrapToWidth('', 10, 3)).toEqual([]);
  });
});

describe('formats', () => {
  it('lists the five formats', () => {
    expect(FORMATS).toEqual(['table', 'jsonl', 'json', 'csv', 'parquet']);
    expect(isFormat('csv')).toBe(true);
    expect(isFormat('xml')).toBe(false);
    // Not a format, though every object has it.
    expect(isFormat('toString')).toBe(false);
  });
});
