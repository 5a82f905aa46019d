// The parts of a query both engines turn into SQL: record filters split into SQL-able and residual ones, search words.
import type { SortField } from '../api/constants.js';
import { fold } from '../filters/normalize.js';
import { compileFilter, FILTER_FIELDS, type RecordFilter } from '../filters/record-filter.js';
import { SQL_FILTERS, type SqlFilter } from './record-columns.js';
import { heldText } from './sql/stored-text.js';
import { unicode61Tokens } from './unicode61.js';

/** A record filter answered in SQL from its column `filter_<name>`: any of `values` (list) or a substring (text). */
export type SqlCondition =
  | { name: SqlFilter; kind: 'list'; values: string[] }
  | { name: SqlFilter; kind: 'text'; value: string };

export interface FilterParts {
  sql: SqlCondition[];
  /** The filters SQL cannot answer (e.g. --grep), checked on each record after the SQL. */
  residual: ((record: Record<string, unknown>) => boolean) | undefined;
}

/** Splits the record filters: folded values for the `filter_*` columns, the rest compiled to run in JavaScript. */
export function filterParts(filter: RecordFilter | undefined): FilterParts {
  const sql: SqlCondition[] = [];
  const residual: RecordFilter = {};
  for (const [name, wanted] of Object.entries(filter ?? {}) as [keyof RecordFilter, unknown][]) {
    if (wanted === undefined) continue;
    // A filter with its own comparison (--country: whole countries) runs in JavaScript, the same on both engines.
    if (!(SQL_FILTERS as readonly string[]).includes(name) || 'compare' in FILTER_FIELDS[name]) {
      (residual as Record<string, unknown>)[name] = wanted;
      continue;
    }
    const sqlName = name as SqlFilter;
    // Folded as the columns hold them (a NUL, which an MCP client can send, as U+FFFD on both engines).
    const folded = (text: string) => heldText(fold(text));
    if (FILTER_FIELDS[sqlName].kind === 'list')
      sql.push({ name: sqlName, kind: 'list', values: [...new Set((wanted as string[]).map(folded))] });
    else sql.push({ name: sqlName, kind: 'text', value: folded(wanted as string) });
  }
  return { sql, residual: Object.keys(residual).length ? compileFilter(residual) : undefined };
}

/** One word of --search: the index tokens it is made of (a phrase when several), the last one a prefix with `*`. */
export interface SearchWord {
  tokens: string[];
  prefix: boolean;
}

/**
 * The plain words of --search (empty when there is none); `*` alone is no word. Control characters part words: no
 * token holds one, and FTS5 reads a query only up to a NUL ("unterminated string").
 */
export function searchWords(text: string): { word: string; prefix: boolean }[] {
  return text
    .split(/[\s\p{Cc}]+/u)
    .filter((w) => w !== '' && w !== '*')
    .map((w) => (w.endsWith('*') ? { word: w.slice(0, -1), prefix: true } : { word: w, prefix: false }));
}

/**
 * The index's view of a text, as SQLite's FTS5 `unicode61 remove_diacritics 2` tokenizer sees it (unicode61.ts):
 * runs of its letters and digits, case-folded, a Latin letter without accents. The PostgreSQL engine indexes and
 * searches these tokens, so both engines find the same recalls.
 */
export function indexTokens(text: string): string[] {
  // Most text is ASCII, whose tokens are runs of [a-z0-9] once in lower case: the table pass would only cost a sync
  // time (the same tokens either way). FTS5 keeps a token's first 32,768 bytes; only a text that long has one longer.
  if (!/[^\x00-\x7f]/.test(text)) {
    const tokens = text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    return text.length > MAX_ASCII_TOKEN ? tokens.map((t) => t.slice(0, MAX_ASCII_TOKEN)) : tokens;
  }
  return unicode61Tokens(text);
}

/** FTS5's longest token in bytes, which in ASCII is as many characters. */
const MAX_ASCII_TOKEN = 32_768;

/** --search as index tokens, word by word; undefined when there is no word (which matches nothing). */
export function searchTokens(text: string): SearchWord[] | undefined {
  const words = searchWords(text).map(({ word, prefix }) => ({ tokens: indexTokens(word), prefix }));
  return words.length ? words : undefined;
}

/** A query as SQL over `recalls r` (either engine's dialect), with what SQL cannot answer. */
export interface Selection {
  where: string;
  params: unknown[];
  /** The filters SQL cannot answer (e.g. --grep), checked on each record after the SQL. */
  residual: ((record: Record<string, unknown>) => boolean) | undefined;
}

/** The column each sort field orders by, on both engines. */
export const SORT_COLUMN: Record<SortField, string> = {
  published_at: 'published_us',
  updated_at: 'updated_us',
  created_in_db_at: 'created_us',
};
