// SQLite's side of the dialect layer: FTS5 for --search, JSON text for list filters, this host's clock for leases.
import { phraseCheck, type SearchWord, searchTokens } from '../query-parts.js';
import type { Dialect, SearchFragment } from '../sql/client.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * An FTS5 expression from --search's words: every token of every word required, each quoted (so `-`, `"`, AND,
 * NEAR are just text), a word's last token a prefix when it ends in `*`. Tokens, not phrases: archives made since
 * the index kept no positions (`detail = none`) refuse a phrase, and the words of several tokens are checked as
 * phrases on the records found (phraseCheck), on every archive alike.
 */
export function searchExpression(words: readonly SearchWord[]): string {
  return words
    .flatMap(({ tokens, prefix }) =>
      tokens.map((t, i) => `"${t.replace(/"/g, '""')}"${prefix && i === tokens.length - 1 ? '*' : ''}`),
    )
    .join(' ');
}

export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  t: (table) => table,
  true: '1',
  false: '0',
  anyOf: (column, values) => ({ sql: `${column} IN (${marks(values.length)})`, params: [...values] }),
  listHasAny: (column, values) => ({
    sql: `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value IN (${marks(values.length)}))`,
    params: [...values],
  }),
  contains: (column, value) => ({ sql: `instr(${column}, ?) > 0`, params: [value] }),
  search(text, inOrder): SearchFragment | undefined {
    // Words without a letter or digit are ignored, as FTS5 ignores an empty phrase; none left matches nothing.
    const words = (searchTokens(text) ?? []).filter((w) => w.tokens.length > 0);
    if (words.length === 0) return undefined;
    // `+r.id` is no longer the column itself, so no index can serve the IN: the ORDER BY's index does, in order.
    const id = inOrder ? '+r.id' : 'r.id';
    return {
      sql: `${id} IN (SELECT rowid FROM recalls_fts WHERE recalls_fts MATCH ?)`,
      params: [searchExpression(words)],
      residual: phraseCheck(words),
    };
  },
  // SQLite sorts NULL as the smallest value: first ascending, last descending, as wanted.
  order: (dir) => (dir === 'asc' ? 'ASC' : 'DESC'),
  claimLock: '',
  later: (nowMs, ms) => ({ sql: '?', params: [nowMs + ms] }),
  now: (nowMs) => ({ sql: '?', params: [nowMs] }),
  texts: (value) => value,
  stamp: (nowMs) => ({ sql: '?', params: [new Date(nowMs).toISOString()] }),
};
