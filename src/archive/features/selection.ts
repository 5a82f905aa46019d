// Which recalls a query selects (window, sources, full text, record filters) as SQL over `recalls r`, and the listing.
import { sourceSpellings } from '../../api/constants.js';
import { filterParts, SORT_COLUMN, type Selection } from '../query-parts.js';
import type { Dialect, Fragment, SqlClient } from '../sql/client.js';
import type { ArchiveListing, ArchiveQuery } from '../store.js';

/** `inOrder`: a listing with a limit, whose search hits are wanted in its order (Dialect.search). */
export function selection(d: Dialect, q: ArchiveQuery, inOrder = false): Selection {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (f: Fragment) => {
    where.push(f.sql);
    params.push(...f.params);
  };
  if (q.sinceUs !== undefined) add({ sql: 'r.published_us >= ?', params: [q.sinceUs] });
  if (q.untilUs !== undefined) add({ sql: 'r.published_us < ?', params: [q.untilUs] });
  // No source at all selects nothing, as an empty IN list would. A source is matched in every spelling the API uses.
  const sources = q.sources && [...new Set(q.sources.flatMap(sourceSpellings))];
  if (sources) add(sources.length ? d.anyOf('r.data_source', sources, 'text') : { sql: d.false, params: [] });
  if (q.search !== undefined) {
    // No word at all (only spaces or `*`) matches nothing rather than everything.
    add(d.search(q.search, inOrder) ?? { sql: d.false, params: [] });
  }
  const parts = filterParts(q.filter);
  for (const c of parts.sql) {
    const column = `r.filter_${c.name}`;
    add(c.kind === 'list' ? d.listHasAny(column, c.values) : d.contains(column, c.value));
  }
  return { where: where.length ? where.join(' AND ') : d.true, params, residual: parts.residual };
}

/** A listing's SQL: the selection in order, with its limit when no residual filter decides which rows count. */
export function listingSql(d: Dialect, q: ArchiveListing): Fragment & Pick<Selection, 'residual'> {
  // Limited here or in listRows, the rows are read in order and no more than needed.
  const sel = selection(d, q, q.limit !== undefined);
  const column = SORT_COLUMN[q.sortBy ?? 'published_at'];
  const dir = q.order ?? 'desc';
  // With a residual filter the limit counts records that pass it, so it is applied in listRows, not in SQL.
  const sqlLimit = q.limit !== undefined && !sel.residual;
  const sql = `SELECT r.raw FROM ${d.t('recalls')} r WHERE ${sel.where}
    ORDER BY r.${column} ${d.order(dir)}, r.id ${dir === 'asc' ? 'ASC' : 'DESC'}${sqlLimit ? ' LIMIT ?' : ''}`;
  return { sql, params: sqlLimit ? [...sel.params, q.limit] : sel.params, residual: sel.residual };
}

/**
 * The matching rows in order (ties broken by id in the same direction), a batch at a time: each record's stored
 * JSON text (JSON.stringify's, as upsert wrote it), with the record parsed when a residual filter had to parse it to
 * check it. The store parses the others one at a time, as they are read: a batch parsed at once outlives the young
 * generation while its records are matched, and the garbage it leaves in the old one was most of match --archive's
 * peak memory.
 */
export async function* listRows(
  client: SqlClient,
  d: Dialect,
  q: ArchiveListing,
): AsyncGenerator<[text: string, record: Record<string, unknown> | undefined][]> {
  if (q.limit === 0) return;
  const { sql, params, residual } = listingSql(d, q);
  let left = q.limit ?? Number.POSITIVE_INFINITY;
  for await (const rows of client.batches<{ raw: string }>(sql, params)) {
    const out: [string, Record<string, unknown> | undefined][] = [];
    for (const { raw } of rows) {
      let record: Record<string, unknown> | undefined;
      if (residual) {
        record = JSON.parse(raw) as Record<string, unknown>;
        if (!residual(record)) continue;
      }
      out.push([raw, record]);
      if (--left <= 0) break;
    }
    yield out;
    if (left <= 0) return;
  }
}
