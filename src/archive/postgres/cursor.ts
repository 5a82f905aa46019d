// A listing on PostgreSQL: the rows through a cursor in a read-only transaction, a batch per round trip.
import type pg from 'pg';

/** Rows fetched per round trip: memory stays flat however many match. */
const FETCH = 1000;

export async function* cursorRows<T extends pg.QueryResultRow>(
  client: pg.Client,
  sql: string,
  params: unknown[],
): AsyncGenerator<T[]> {
  await client.query('BEGIN READ ONLY');
  try {
    await client.query(`DECLARE archive_rows NO SCROLL CURSOR FOR ${sql}`, params);
    for (;;) {
      const { rows } = await client.query<T>(`FETCH ${FETCH} FROM archive_rows`);
      if (rows.length === 0) break;
      yield rows;
    }
  } finally {
    await client.query('ROLLBACK').catch(() => {});
  }
}
