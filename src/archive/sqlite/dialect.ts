// SQLite's side of the dialect layer: FTS5 for --search, JSON text for list filters, this host's clock for leases.
import { searchWords } from '../query-parts.js';
import type { Dialect, Fragment } from '../sql/client.js';
import { mapTexts } from '../../api/text-values.js';
import { wellFormed } from '../sql/stored-text.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * An FTS5 expression from plain words: each word quoted (so `-`, `"`, AND, NEAR are just text), all
 * required; a trailing `*` asks for a prefix. Undefined when there is no word.
 */
export function searchExpression(text: string): string | undefined {
  const terms = searchWords(text).map(({ word, prefix }) => `"${word.replace(/"/g, '""')}"${prefix ? '*' : ''}`);
  return terms.length ? terms.join(' ') : undefined;
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
  search(text, inOrder): Fragment | undefined {
    const expression = searchExpression(text);
    if (expression === undefined) return undefined;
    // `+r.id` is no longer the column itself, so no index can serve the IN: the ORDER BY's index does, in order.
    const id = inOrder ? '+r.id' : 'r.id';
    return { sql: `${id} IN (SELECT rowid FROM recalls_fts WHERE recalls_fts MATCH ?)`, params: [expression] };
  },
  // SQLite sorts NULL as the smallest value: first ascending, last descending, as wanted.
  order: (dir) => (dir === 'asc' ? 'ASC' : 'DESC'),
  claimLock: '',
  later: (nowMs, ms) => ({ sql: '?', params: [nowMs + ms] }),
  now: (nowMs) => ({ sql: '?', params: [nowMs] }),
  // SQLite keeps a NUL; a lone surrogate it would write as bytes no UTF-8 reader gives back.
  texts: (value) => mapTexts(value, (text) => wellFormed(text)),
  stamp: (nowMs) => ({ sql: '?', params: [new Date(nowMs).toISOString()] }),
};
