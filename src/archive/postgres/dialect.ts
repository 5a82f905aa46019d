// PostgreSQL's side of the dialect layer: tables in the archive's schema, arrays, tsquery, the server's clock.
import type { Dialect } from '../sql/client.js';
import { pgTexts } from './pg-text.js';
import { quoted } from './schema.js';
import { tsqueryText } from './search.js';

/** The dialect for the archive in `schema` (unquoted). */
export function postgresDialect(schema: string): Dialect {
  const s = quoted(schema);
  return {
    engine: 'postgres',
    t: (table) => `${s}.${table}`,
    true: 'true',
    false: 'false',
    anyOf: (column, values, type) => ({ sql: `${column} = ANY(?::${type}[])`, params: [[...values]] }),
    listHasAny: (column, values) => ({ sql: `${column} && ?::text[]`, params: [[...values]] }),
    contains: (column, value) => ({ sql: `strpos(${column}, ?) > 0`, params: [value] }),
    search(text) {
      const tsquery = tsqueryText(text);
      return tsquery === undefined ? undefined : { sql: 'r.search @@ ?::tsquery', params: [tsquery] };
    },
    // Explicit, as SQLite orders: PostgreSQL's default puts nulls last ascending (the indexes are built so).
    order: (dir) => (dir === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'),
    claimLock: 'FOR UPDATE SKIP LOCKED',
    later: (_nowMs, ms) => ({ sql: "clock_timestamp() + ? * interval '1 millisecond'", params: [ms] }),
    now: () => ({ sql: 'clock_timestamp()', params: [] }),
    texts: pgTexts,
    stamp: () => ({ sql: 'clock_timestamp()', params: [] }),
  };
}
