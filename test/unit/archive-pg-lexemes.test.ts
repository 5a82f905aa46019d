// The PostgreSQL search column's bounds, computed without a server: no lexeme past 2,046 bytes, the vector under
// 1 MB, and a long word's stand-in the same in the index and in the query (so it is found).
import { describe, expect, it } from 'vitest';
import {
  lexeme,
  MAX_LEXEME_BYTES,
  MAX_VECTOR_BYTES,
  tsqueryText,
  tsvectorText,
} from '../../src/archive/postgres/search.js';

/** The lexemes of tsvector text ('a':1 'b':2,3), and the bytes PostgreSQL would need at most for them. */
function parse(vector: string): { words: string[]; bytes: number } {
  const entries = [...vector.matchAll(/'([^']*)':([\d,]+)/g)];
  const words = entries.map((m) => m[1] as string);
  const bytes = entries.reduce(
    (n, m) => n + 4 + Buffer.byteLength(m[1] as string) + 1 + 2 + 2 * (m[2] as string).split(',').length,
    0,
  );
  return { words, bytes };
}

describe('tsvectorText bounds', () => {
  it('a word over 2,046 bytes (accented letters: 2 bytes each) becomes a bounded stand-in the query shares', () => {
    const long = 'é'.repeat(1100);
    expect(Buffer.byteLength(long)).toBeGreaterThan(MAX_LEXEME_BYTES);
    const { words } = parse(tsvectorText([`hot ${long}`]));
    expect(words).toHaveLength(2);
    for (const w of words) expect(Buffer.byteLength(w)).toBeLessThanOrEqual(MAX_LEXEME_BYTES);
    const stand = lexeme('e'.repeat(1100));
    expect(words).toContain(stand);
    // The index folds accents: the query of the accented word looks up the same stand-in.
    expect(tsqueryText(long)).toBe(`('${stand}')`);
    // A word of exactly 2,046 bytes is kept as it is.
    expect(lexeme('a'.repeat(MAX_LEXEME_BYTES))).toBe('a'.repeat(MAX_LEXEME_BYTES));
    expect(lexeme('a'.repeat(MAX_LEXEME_BYTES + 1))).not.toBe(lexeme(`${'a'.repeat(MAX_LEXEME_BYTES)}b`));
  });

  it('stays under 1 MB however many distinct words, keeping the first ones', () => {
    const text = Array.from({ length: 150_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    const { words, bytes } = parse(tsvectorText([text]));
    expect(bytes).toBeLessThanOrEqual(MAX_VECTOR_BYTES);
    expect(words).toContain('w0x');
    expect(words.length).toBeLessThan(150_000);
  });
});
