// Turns a query into SQL over "recall_feed".recalls, and streams the matching rows through a cursor, a batch at a time.
import type pg from 'pg';
import { filterParts, SORT_COLUMN, type Selection } from '../query-parts.js';
import type { ArchiveListing, ArchiveQuery } from '../store.js';
import { tsqueryText } from './search.js';

/** Rows fetched per round trip: memory stays flat however many match. */
const FETCH = 1000;

export function selection(q: ArchiveQuery): Selection {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (q.sinceUs !== undefined) where.push(`r.published_us >= ${param(q.sinceUs)}`);
  if (q.untilUs !== undefined) where.push(`r.published_us < ${param(q.untilUs)}`);
  if (q.sources) where.push(`r.data_source = ANY(${param([...q.sources])}::text[])`);
  if (q.search !== undefined) {
    const tsquery = tsqueryText(q.search);
    where.push(tsquery === undefined ? 'false' : `r.search @@ ${param(tsquery)}::tsquery`);
  }
  const parts = filterParts(q.filter);
  for (const c of parts.sql) {
    const column = `r.filter_${c.name}`;
    if (c.kind === 'list') where.push(`${column} && ${param(c.values)}::text[]`);
    else where.push(`strpos(${column}, ${param(c.value)}) > 0`);
  }
  return { where: where.length ? where.join(' AND ') : 'true', params, residual: parts.residual };
}

/** `sql`'s rows through a cursor in a read-only transaction, FETCH rows at a time. */
export async function* cursorRows<T extends pg.QueryResultRow>(
  client: pg.Client,
  sql: string,
  params: unknown[],
): AsyncGenerator<T> {
  await client.query('BEGIN READ ONLY');
  try {
    await client.query(`DECLARE archive_rows NO SCROLL CURSOR FOR ${sql}`, params);
    for (;;) {
      const { rows } = await client.query<T>(`FETCH ${FETCH} FROM archive_rows`);
      if (rows.length === 0) break;
      yield* rows;
    }
  } finally {
    await client.query('ROLLBACK').catch(() => {});
  }
}

/** The matching rows in order (SQLite's: nulls first ascending, last descending; ties by id), with any residual filter. */
async function* matchingRows(
  client: pg.Client,
  schema: string,
  q: ArchiveListing,
): AsyncGenerator<[text: string, record: Record<string, unknown> | undefined]> {
  if (q.limit === 0) return;
  const sel = selection(q);
  const column = SORT_COLUMN[q.sortBy ?? 'published_at'];
  const asc = (q.order ?? 'desc') === 'asc';
  const dir = asc ? 'ASC NULLS FIRST' : 'DESC NULLS LAST';
  const sqlLimit = q.limit !== undefined && !sel.residual;
  const sql = `SELECT r.raw FROM ${schema}.recalls r WHERE ${sel.where} ORDER BY r.${column} ${dir}, r.id ${asc ? 'ASC' : 'DESC'}${sqlLimit ? ` LIMIT ${q.limit}` : ''}`;
  let n = 0;
  for await (const row of cursorRows<{ raw: string }>(client, sql, sel.params)) {
    let record: Record<string, unknown> | undefined;
    if (sel.residual) {
      record = JSON.parse(row.raw) as Record<string, unknown>;
      if (!sel.residual(record)) continue;
    }
    yield [row.raw, record];
    if (q.limit !== undefined && ++n >= q.limit) return;
  }
}

export async function* listRecords(
  client: pg.Client,
  schema: string,
  q: ArchiveListing,
): AsyncGenerator<Record<string, unknown>> {
  for await (const [text, record] of matchingRows(client, schema, q))
    yield record ?? (JSON.parse(text) as Record<string, unknown>);
}

export async function* listRecordTexts(client: pg.Client, schema: string, q: ArchiveListing): AsyncGenerator<string> {
  for await (const [text] of matchingRows(client, schema, q)) yield text;
}
