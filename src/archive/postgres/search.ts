// Full text on PostgreSQL: a tsvector of the same tokens SQLite's FTS5 index holds, and --search as a tsquery over them.
import { createHash } from 'node:crypto';
import { indexTokens, searchTokens } from '../query-parts.js';

/** tsvector positions stop at 16383; PostgreSQL keeps at most 256 positions per word. */
const MAX_POSITION = 16_383;

/** PostgreSQL refuses a lexeme longer than this many bytes ("word is too long"). */
export const MAX_LEXEME_BYTES = 2046;
/** A longer token is indexed as its first this-many bytes and a hash of the whole: still found by its full word. */
const KEPT_BYTES = 1000;
/**
 * A tsvector holds at most 1 MB of lexemes and positions: past this estimate (lexeme bytes, alignment, entry and
 * positions) further words of a record are not indexed, as to_tsvector would refuse the whole.
 */
export const MAX_VECTOR_BYTES = 1_000_000;

/** The first `max` bytes of `token` in UTF-8, never cutting a character. */
function firstBytes(token: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of token) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > max) break;
    bytes += size;
    end += ch.length;
  }
  return token.slice(0, end);
}

/** The lexeme PostgreSQL stores for one of our tokens: itself, or for a token too long, a bounded stand-in. */
export function lexeme(token: string): string {
  if (Buffer.byteLength(token) <= MAX_LEXEME_BYTES) return token;
  return `${firstBytes(token, KEPT_BYTES)}${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
}

/** A prefix as a lexeme prefix: a long one cut to the bytes a long token keeps (it then finds every token so begun). */
function prefixLexeme(token: string): string {
  return Buffer.byteLength(token) <= KEPT_BYTES ? token : firstBytes(token, KEPT_BYTES);
}

/**
 * The tsvector text of a record's full-text fields (ftsValues' order). Tokens are ours (indexTokens), so case
 * and accents fold exactly as in the SQLite engine's FTS5; a gap between fields keeps a phrase inside one field,
 * as FTS5's columns do.
 */
export function tsvectorText(fields: readonly (string | null)[]): string {
  const positions = new Map<string, number[]>();
  let at = 0;
  let size = 0;
  for (const text of fields) {
    if (text === null) continue;
    for (const token of indexTokens(text)) {
      at = Math.min(at + 1, MAX_POSITION);
      const word = lexeme(token);
      const list = positions.get(word);
      if (list === undefined) {
        // An entry (4), the lexeme padded to an even length, the position count (2) and one position (2).
        const cost = 4 + Buffer.byteLength(word) + 1 + 4;
        if (size + cost > MAX_VECTOR_BYTES) continue;
        size += cost;
        positions.set(word, [at]);
      } else if (list.length < 256 && size + 2 <= MAX_VECTOR_BYTES) {
        size += 2;
        list.push(at);
      }
    }
    at = Math.min(at + 2, MAX_POSITION);
  }
  // A token's only ASCII characters are letters and digits (unicode61.ts): quoting it needs no escapes.
  return [...positions].map(([token, list]) => `'${token}':${list.join(',')}`).join(' ');
}

/**
 * --search as tsquery text: every word required, a word of several tokens (cb-200) a phrase, a trailing `*`
 * a prefix. Words without a token are ignored, as FTS5 ignores an empty phrase; undefined when nothing is left
 * (which matches nothing).
 */
export function tsqueryText(search: string): string | undefined {
  const words = (searchTokens(search) ?? []).filter((w) => w.tokens.length > 0);
  if (words.length === 0) return undefined;
  return words
    .map((w) =>
      w.tokens
        .map((t, i) => (w.prefix && i === w.tokens.length - 1 ? `'${prefixLexeme(t)}':*` : `'${lexeme(t)}'`))
        .join(' <-> '),
    )
    .map((phrase) => `(${phrase})`)
    .join(' & ');
}
