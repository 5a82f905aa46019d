// Version 7's new tokens for recalls indexed before it: search (the tsvector) as FTS5 tokenizes (unicode61.ts), where
// earlier versions folded every script's marks away and kept a final sigma.
import type pg from 'pg';
import { ftsValues } from '../record-columns.js';
import { tsvectorText } from './search.js';

/** Rows read and written per round trip. */
const BATCH = 1000;

/**
 * Indexes again, in the caller's transaction (the migration's), every recall whose tokens may have changed: those with
 * a character beyond ASCII (the earlier tokens were the same for ASCII text) or with a word that may be longer than
 * FTS5 keeps (32,768 bytes). A row whose tsvector comes out the same is left as it is. Returns how many changed.
 */
export async function reindexSearch(client: pg.Client, s: string): Promise<number> {
  await client.query(
    `DECLARE reindex_rows NO SCROLL CURSOR FOR
       SELECT id, raw FROM ${s}.recalls WHERE octet_length(raw) > length(raw) OR length(raw) > 32768`,
  );
  let changed = 0;
  try {
    for (;;) {
      const { rows } = await client.query<{ id: string; raw: string }>(`FETCH ${BATCH} FROM reindex_rows`);
      if (rows.length === 0) break;
      const vectors = rows.map((r) => tsvectorText(ftsValues(JSON.parse(r.raw) as Record<string, unknown>)));
      const updated = await client.query(
        `UPDATE ${s}.recalls r SET search = v.search
           FROM (SELECT unnest($1::bigint[]) AS id, unnest($2::text[])::tsvector AS search) AS v
          WHERE r.id = v.id AND r.search IS DISTINCT FROM v.search`,
        [rows.map((r) => r.id), vectors],
      );
      changed += updated.rowCount ?? 0;
    }
  } finally {
    await client.query('CLOSE reindex_rows');
  }
  return changed;
}
