// Full text on PostgreSQL: a tsvector of the same tokens SQLite's FTS5 index holds, and --search as a tsquery over them.
import { indexTokens, searchTokens } from '../query-parts.js';

/** tsvector positions stop at 16383; PostgreSQL keeps at most 256 positions per word. */
const MAX_POSITION = 16_383;

/**
 * The tsvector text of a record's full-text fields (ftsValues' order). Tokens are ours (indexTokens), so case
 * and accents fold exactly as in the SQLite engine; a gap between fields keeps a phrase inside one field,
 * as FTS5's columns do.
 */
export function tsvectorText(fields: readonly (string | null)[]): string {
  const positions = new Map<string, number[]>();
  let at = 0;
  for (const text of fields) {
    if (text === null) continue;
    for (const token of indexTokens(text)) {
      at = Math.min(at + 1, MAX_POSITION);
      const list = positions.get(token);
      if (list === undefined) positions.set(token, [at]);
      else if (list.length < 256) list.push(at);
    }
    at = Math.min(at + 2, MAX_POSITION);
  }
  // Tokens are letters and digits only: quoting them needs no escapes.
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
    .map((w) => w.tokens.map((t, i) => `'${t}'${w.prefix && i === w.tokens.length - 1 ? ':*' : ''}`).join(' <-> '))
    .map((phrase) => `(${phrase})`)
    .join(' & ');
}
