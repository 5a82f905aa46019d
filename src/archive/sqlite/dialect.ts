// SQLite's side of the dialect layer: FTS5 for --search, JSON text for list filters, this host's clock for leases.
import { searchWords } from '../query-parts.js';
import type { Dialect, Fragment } from '../sql/client.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * An FTS5 expression from plain words: each word quoted (so `-`, `"`, AND, NEAR are just text), all
 * required; a trailing `*` asks for a prefix. Undefined when there is no word.
 */
export function searchExpression(text: string): string | undefined {
  const terms = searchWords(text).map(({ word, prefix }) => `"${word.replace(/"/g, '""')}"${prefix ? '*' : ''}`);
  return terms.length ? terms.join(' ') : undefined;
}

/** The index on each sort column (schema.ts, V1), with id: a scan of it meets the rows in the listing's order. */
const SORT_INDEX: Readonly<Record<string, string>> = {
  published_us: 'recalls_published',
  updated_us: 'recalls_updated',
  created_us: 'recalls_created',
};

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
  search(text): Fragment | undefined {
    const expression = searchExpression(text);
    if (expression === undefined) return undefined;
    return { sql: 'r.id IN (SELECT rowid FROM recalls_fts WHERE recalls_fts MATCH ?)', params: [expression] };
  },
  sortedScan: (column) => (SORT_INDEX[column] ? `INDEXED BY ${SORT_INDEX[column]}` : ''),
  // SQLite sorts NULL as the smallest value: first ascending, last descending, as wanted.
  order: (dir) => (dir === 'asc' ? 'ASC' : 'DESC'),
  claimLock: '',
  later: (nowMs, ms) => ({ sql: '?', params: [nowMs + ms] }),
  now: (nowMs) => ({ sql: '?', params: [nowMs] }),
  texts: (value) => value,
  stamp: (nowMs) => ({ sql: '?', params: [new Date(nowMs).toISOString()] }),
};
