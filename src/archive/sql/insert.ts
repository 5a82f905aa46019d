// Many rows in few statements: a multi-row INSERT … VALUES, in chunks, for both engines.
import type { SqlClient } from './client.js';

/** Rows per statement: well under SQLite's and PostgreSQL's parameter limits, and few distinct statements to cache. */
const CHUNK = 100;

/** Inserts `rows` (values in `columns` order) into `table`; `tail` follows VALUES (e.g. ON CONFLICT DO NOTHING). */
export async function insertRows(
  client: SqlClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  tail = '',
): Promise<void> {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK);
    await client.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${part.map(() => tuple).join(', ')} ${tail}`,
      part.flat(),
    );
  }
}
