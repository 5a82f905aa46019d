// SQLite FTS5's own tokens, made by the tokenizer of the SQLite archive's recalls_fts: the oracle that indexTokens
// (src/archive/unicode61.ts) must agree with, and the source its tables are read from.
import Database from 'better-sqlite3';
import { FTS_TABLE } from '../../src/archive/sqlite/schema.js';

/** The tokenize option of the archive's full-text table, so that the oracle is the archive's own tokenizer. */
function tokenize(): string {
  const found = /tokenize = '([^']*)'/.exec(FTS_TABLE)?.[1];
  if (found === undefined) throw new Error('FTS_TABLE names no tokenize option');
  return found;
}

/**
 * FTS5's tokens of each text, in order: the texts stored in an in-memory fts5 table with the archive's tokenize
 * option, and read back per row through an fts5vocab table (instance), which lists each token with its offset.
 */
export function fts5Tokens(texts: readonly string[]): string[][] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = '${tokenize()}');
      CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);`);
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    db.transaction(() => {
      for (const [i, text] of texts.entries()) insert.run(i + 1, text);
    })();
    const tokens = texts.map((): string[] => []);
    const rows = db.prepare('SELECT doc, term FROM v ORDER BY doc, "offset"').raw().iterate();
    for (const [doc, term] of rows as IterableIterator<[number, string]>) tokens[doc - 1]!.push(term);
    return tokens;
  } finally {
    db.close();
  }
}

/** Every code point from `from` to `to`, surrogates left out (a text cannot hold one alone as UTF-8). */
export function codePoints(from: number, to: number, step = 1): number[] {
  const points: number[] = [];
  for (let c = from; c <= to; c += step) if (c < 0xd800 || c > 0xdfff) points.push(c);
  return points;
}

const hex = (n: number) => n.toString(16);
const range = (from: number, to: number) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`);

/**
 * unicode61.ts's three tables, read from FTS5: each non-ASCII code point's token between `x` and `y` (`xy` alone:
 * a character that becomes nothing; `x`, `y`: one that parts tokens). Each table a string of entries.
 */
export function unicode61Tables(): { TOKEN: string; TO_ASCII: string; SHIFTED: string } {
  const points = codePoints(0x80, 0x10ffff);
  const folds = new Map<number, string>();
  const token: number[] = [];
  for (let i = 0; i < points.length; i += 1000) {
    const part = points.slice(i, i + 1000);
    fts5Tokens(part.map((c) => `x${String.fromCodePoint(c)}y`)).forEach((found, k) => {
      const c = part[k]!;
      if (found.length === 2 && found[0] === 'x' && found[1] === 'y') return;
      if (found.length !== 1 || !/^x.*y$/su.test(found[0]!)) throw new Error(`U+${hex(c)}: ${JSON.stringify(found)}`);
      token.push(c);
      const folded = found[0]!.slice(1, -1);
      if (folded !== String.fromCodePoint(c)) folds.set(c, folded);
    });
  }
  const tokenRanges: [number, number][] = [];
  for (const c of token) {
    const last = tokenRanges.at(-1);
    if (last && last[1] === c - 1) last[1] = c;
    else tokenRanges.push([c, c]);
  }
  // An ASCII letter or nothing (accents removed) in runs of one target; every other change as a shift, in runs of
  // one shift at every code point or every second one, which may span code points of the first kind.
  const ascii: { from: number; to: number; target: string }[] = [];
  const shifted: { from: number; to: number; shift: number; step: number }[] = [];
  const toAscii = new Set<number>();
  for (const [c, folded] of folds) {
    if (folded !== '' && folded.charCodeAt(0) >= 0x80) continue;
    toAscii.add(c);
    const last = ascii.at(-1);
    if (last && last.target === folded && last.to === c - 1) last.to = c;
    else ascii.push({ from: c, to: c, target: folded });
  }
  for (const [c, folded] of folds) {
    if (toAscii.has(c)) continue;
    const shift = folded.codePointAt(0)! - c;
    const last = shifted.at(-1);
    const spans = (step: number) => {
      if (!last || (c - last.to) % step !== 0) return false;
      for (let x = last.to + step; x < c; x += step) if (!toAscii.has(x)) return false;
      return true;
    };
    if (last && last.shift === shift && last.step !== 0 && spans(last.step)) last.to = c;
    else if (last && last.shift === shift && last.step === 0 && (spans(1) || spans(2))) {
      last.step = spans(1) ? 1 : 2;
      last.to = c;
    } else shifted.push({ from: c, to: c, shift, step: 0 });
  }
  return {
    TOKEN: tokenRanges.map(([a, b]) => range(a, b)).join(' '),
    TO_ASCII: ascii.map((e) => `${range(e.from, e.to)}=${e.target}`).join(' '),
    SHIFTED: shifted
      .map(
        (e) => `${range(e.from, e.to)}${e.step === 2 ? '/2' : ''}:${e.shift < 0 ? '-' : '+'}${hex(Math.abs(e.shift))}`,
      )
      .join(' '),
  };
}
