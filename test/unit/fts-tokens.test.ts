// indexTokens (the PostgreSQL engine's tokens, and --search's on both engines) against the oracle: the tokens SQLite's
// FTS5 itself makes with the SQLite archive's tokenize option, for every code point of planes 0 and 1 in several
// contexts, the combining marks of many scripts inside words, and words of many scripts.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexTokens, searchTokens } from '../../src/archive/query-parts.js';
import { codePoints, fts5Tokens, unicode61Tables } from '../helpers/fts5-oracle.js';

const show = (text: string) =>
  JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);

/**
 * Checks indexTokens against FTS5 on `texts`, many at a time (each a row of `pack` texts joined by spaces, as FTS5
 * sees a recall's text); a row that differs is checked text by text, and those texts are the failure.
 */
function agrees(texts: readonly string[], pack = 1): void {
  const rows: string[][] = [];
  for (let i = 0; i < texts.length; i += pack) rows.push(texts.slice(i, i + pack));
  const joined = rows.map((row) => row.join(' '));
  const oracle = fts5Tokens(joined);
  const differing = rows.filter((_, i) => JSON.stringify(indexTokens(joined[i]!)) !== JSON.stringify(oracle[i]));
  const single = differing.flat();
  const singleOracle = fts5Tokens(single);
  const wrong = single
    .map((text, i) => ({ text: show(text), fts5: singleOracle[i], ours: indexTokens(text) }))
    .filter((d) => JSON.stringify(d.fts5) !== JSON.stringify(d.ours));
  // A row can differ where none of its texts does alone (how they meet): then the row is the failure.
  if (differing.length > 0 && wrong.length === 0) wrong.push({ text: 'a row', fts5: [], ours: [] });
  expect(wrong.slice(0, 20), `${wrong.length} texts tokenized differently`).toEqual([]);
}

const chr = (c: number) => String.fromCodePoint(c);

describe('indexTokens makes the tokens SQLite FTS5 makes (unicode61 remove_diacritics 2)', () => {
  it('for every code point of the BMP, between letters, alone, doubled beside Latin and Greek, before an accent', () => {
    const bmp = codePoints(0, 0xffff);
    agrees(
      bmp.map((c) => `x${chr(c)}y`),
      500,
    );
    agrees(
      bmp.map((c) => chr(c)),
      500,
    );
    agrees(
      bmp.map((c) => `É${chr(c)}${chr(c)}Ωß`),
      500,
    );
    agrees(
      bmp.map((c) => `${chr(c)}\u0301A1`),
      500,
    );
  });

  it('for every code point of plane 1, and the other planes at their edges and in steps', () => {
    agrees(
      codePoints(0x10000, 0x1ffff).map((c) => `x${chr(c)}Я`),
      500,
    );
    const rest = [
      ...codePoints(0x20000, 0x10ffff, 0xff),
      ...codePoints(0x2a6c0, 0x2a720),
      ...codePoints(0x2fff0, 0x30010),
      ...codePoints(0xdfff0, 0xe0200),
      ...codePoints(0xefff0, 0xf0010),
      ...codePoints(0x10fff0, 0x10ffff),
    ];
    agrees(
      rest.map((c) => `${chr(c)}x${chr(c)}`),
      500,
    );
  });

  it('for every combining mark inside words of ten scripts', () => {
    const marks = codePoints(0x300, 0x1ffff).filter((c) => /\p{M}/u.test(chr(c)));
    expect(marks.length).toBeGreaterThan(1500);
    const words = ['ab', 'ΑΒ', 'жя', 'بت', 'של', 'कख', 'กข', 'அக', '中文', 'ᄀ각'];
    agrees(
      words.flatMap(([first, ...rest]) => marks.map((m) => `${first}${chr(m)}${rest.join('')}`)),
      400,
    );
  });

  it('for words of many scripts: final sigma, Turkish i, ß, marks, digits, joiners, emoji, control codes', () => {
    const nfd = (t: string) => t.normalize('NFD');
    const words = [
      'Οδυσσεύς',
      'ΟΔΥΣΣΕΥΣ',
      'οδυσσευσ',
      'οδυσσεύς',
      'ΆΈΉΊΌΎΏ ΐΰ',
      'Ёлочка',
      'елочка',
      'Йогурт',
      'иогурт',
      'مَصباح',
      'مصباح',
      'صباح',
      'إسماعيل أحمد',
      'שָׁלוֹם',
      'שלום',
      'לו',
      'हिन्दी',
      'नद',
      'क्‍ष',
      'می‌خواهم',
      'İstanbul ISTANBUL ıstanbul istanbul',
      'straße STRASSE ẞ',
      'Crème brûlée',
      nfd('Crème brûlée'),
      'Việt Nam',
      nfd('Việt Nam'),
      'Łódź Ørsted Œuvre Æsir ðþ',
      'ǅungla ǄǆǅǇ ﬁsh ﬀ',
      'Å Å K µ ſ ϐϑϕϖϰϱϵ',
      '٠١٢٣ ۴۵۶ ०१२ ０１２ ①② ½ ²',
      'abcΔέλταжизнь中文日本語한국어ｶﾀｶﾅ',
      'がぎぐ ガ ｶﾞ',
      '😀👍🏽👨‍👩‍👧 🌶 🇫🇷 ❤️',
      'co\u00adoperate zero\u200bwidth no\u00a0break',
      'ꭰꭱ ᏸᏹ Ᏸ ᲐᲑ აბ',
      'a\u0000b c\u001bd e\u007ff',
      'a\ud800b c\udc00d \udc00\ud800 x\ud83d',
      'Ⓐⓑ ⅰⅱ Ⅻ',
      '𝐀𝐁𝐂 𐐀𐐨 𞤀𞤢',
      'ZR-0532 xk-200/B 3,002',
      "o’clock don't",
      'ąčęėįšųūž ĄČĘĖĮŠŲŪŽ',
      'ı̇ i̇ İ',
    ];
    agrees(words);
    agrees(words.map((w) => w.toUpperCase()));
    agrees(words.map((w) => w.toLowerCase()));
    agrees(words.map(nfd));
  });

  it('keeps a token longer than 32,768 bytes as its first 32,768, as FTS5 does', () => {
    const long = [
      'x'.repeat(40_000),
      `${'a'.repeat(32_768)}b`,
      `${'a'.repeat(40_000)} é`,
      'ж'.repeat(20_000),
      'Ж'.repeat(20_000),
      '𝐀'.repeat(9_000),
      `${'é'.repeat(40_000)}`,
    ];
    agrees(long);
    expect(indexTokens('x'.repeat(40_000))).toEqual(['x'.repeat(32_768)]);
  });

  it('reads --search as FTS5 reads the quoted word: the reviewer’s words', () => {
    // What the SQLite engine matches: each word as a quoted FTS5 phrase, tokenized by the same tokenizer.
    for (const word of ['οδυσσεύς', 'οδυσσευσ', 'елочка', 'иогурт', 'مصباح', 'صباح', 'שלום', 'לו', 'नद']) {
      expect(searchTokens(word)?.[0]?.tokens, word).toEqual(fts5Tokens([word])[0]);
    }
  });

  // After an SQLite upgrade that changes FTS5's tables: UPDATE_UNICODE61=1 npx vitest run test/unit/fts-tokens.test.ts
  it.runIf(process.env.UPDATE_UNICODE61 === '1')('rewrites unicode61.ts tables from FTS5', () => {
    const file = new URL('../../src/archive/unicode61.ts', import.meta.url);
    const source = readFileSync(file, 'utf8');
    const tables = unicode61Tables();
    let updated = source;
    for (const [name, entries] of Object.entries(tables)) {
      const lines: string[] = [];
      for (const entry of entries.split(' ')) {
        const last = lines.at(-1);
        if (last !== undefined && last.length + 1 + entry.length <= 112) lines[lines.length - 1] = `${last} ${entry}`;
        else lines.push(entry);
      }
      updated = updated.replace(
        new RegExp(`const ${name} = \`[^\`]*\`;`),
        `const ${name} = \`\n${lines.join('\n')}\`;`,
      );
    }
    writeFileSync(file, updated);
    expect(updated).toContain(tables.TOKEN.slice(0, 40));
  });
});
