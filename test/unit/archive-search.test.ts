// The PostgreSQL engine's full text: tsvector text of our own tokens, and --search as a tsquery over them.
import { describe, expect, it } from 'vitest';
import { tsqueryText, tsvectorText } from '../../src/archive/postgres/search.js';
import { indexTokens } from '../../src/archive/query-parts.js';

describe('tsvectorText', () => {
  it('indexes letters and digits without case or accents, positions per field with a gap between fields', () => {
    // Field 1 takes positions 1-2, then a gap of 2; field 3 starts at 5.
    expect(tsvectorText(['Crème Brûlée', null, 'XK-200/B crème'])).toBe("'creme':1,8 'brulee':2 'xk':5 '200':6 'b':7");
  });

  it('keeps letters without a decomposition (ø, œ, ß) as they are, as SQLite FTS5 does', () => {
    expect(tsvectorText(['Ørsted Œuvre Straße'])).toBe("'ørsted':1 'œuvre':2 'straße':3");
  });
});

describe('tsqueryText', () => {
  it('requires every word; a word of several tokens is a phrase, a trailing * a prefix', () => {
    expect(tsqueryText('creme BRÛLÉE')).toBe("('creme') & ('brulee')");
    expect(tsqueryText('XK-200/B zq*')).toBe("('xk' <-> '200' <-> 'b') & ('zq':*)");
    expect(tsqueryText('"brulee')).toBe("('brulee')");
  });

  it('ignores words without a letter or digit, and matches nothing when none is left', () => {
    expect(tsqueryText('fire - —')).toBe("('fire')");
    expect(tsqueryText('- —')).toBeUndefined();
    expect(tsqueryText(' * ')).toBeUndefined();
  });
});

describe('indexTokens', () => {
  it('gives ASCII text the tokens the Unicode rule gives it (letters and digits, lower case)', () => {
    // Every printable ASCII character and some runs of them, checked against the rule written out here.
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    const samples = [ascii, 'Model XK-200/B, lot #4471 (2026)', '__a__B__9__', '', '---', 'Tab\there\nnewline'];
    for (const text of samples) {
      const expected = text
        .toLowerCase()
        .split(/[^\p{L}\p{N}\p{Co}]+/u)
        .filter((t) => t !== '');
      expect(indexTokens(text), JSON.stringify(text)).toEqual(expected);
    }
  });
});
