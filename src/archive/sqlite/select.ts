// Turns a query (window, sources, full text, record filters) into SQL, and lists the matching records in order.
import type Database from 'better-sqlite3';
import { filterParts, SORT_COLUMN, type Selection, searchWords } from '../query-parts.js';
import type { ArchiveListing, ArchiveQuery } from '../store.js';

/**
 * An FTS5 expression from plain words: each word quoted (so `-`, `"`, AND, NEAR are just text), all
 * required; a trailing `*` asks for a prefix. Undefined when there is no word.
 */
export function searchExpression(text: string): string | undefined {
  const terms = searchWords(text).map(({ word, prefix }) => `"${word.replace(/"/g, '""')}"${prefix ? '*' : ''}`);
  return terms.length ? terms.join(' ') : undefined;
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function selection(q: ArchiveQuery): Selection {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.sinceUs !== undefined) {
    where.push('r.published_us >= ?');
    params.push(q.sinceUs);
  }
  if (q.untilUs !== undefined) {
    where.push('r.published_us < ?');
    params.push(q.untilUs);
  }
  if (q.sources) {
    where.push(`r.data_source IN (${marks(q.sources.length)})`);
    params.push(...q.sources);
  }
  if (q.search !== undefined) {
    const expression = searchExpression(q.search);
    // No word at all (only spaces or `*`) matches nothing rather than everything.
    if (expression === undefined) where.push('0');
    else {
      where.push('r.id IN (SELECT rowid FROM recalls_fts WHERE recalls_fts MATCH ?)');
      params.push(expression);
    }
  }
  const parts = filterParts(q.filter);
  for (const c of parts.sql) {
    const column = `r.filter_${c.name}`;
    if (c.kind === 'list') {
      where.push(`EXISTS (SELECT 1 FROM json_each(${column}) WHERE value IN (${marks(c.values.length)}))`);
      params.push(...c.values);
    } else {
      where.push(`instr(${column}, ?) > 0`);
      params.push(c.value);
    }
  }
  return {
    where: where.length ? where.join(' AND ') : '1',
    params,
    residual: parts.residual,
  };
}

/**
 * The matching rows in order (ties broken by id in the same direction), one at a time: each record's stored
 * JSON text, with the record parsed when a residual filter had to parse it to check it.
 */
function* matchingRows(
  db: Database.Database,
  q: ArchiveListing,
): Generator<[text: string, record: Record<string, unknown> | undefined]> {
  const sel = selection(q);
  const column = SORT_COLUMN[q.sortBy ?? 'published_at'];
  const dir = (q.order ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
  // With a residual filter the limit counts records that pass it, so it is applied here, not in SQL.
  const sqlLimit = q.limit !== undefined && !sel.residual;
  const stmt = db
    .prepare(
      `SELECT r.raw FROM recalls r WHERE ${sel.where} ORDER BY r.${column} ${dir}, r.id ${dir}${sqlLimit ? ' LIMIT ?' : ''}`,
    )
    .pluck();
  const params = sqlLimit ? [...sel.params, q.limit] : sel.params;
  let n = 0;
  if (q.limit === 0) return;
  const { residual } = sel;
  for (const raw of stmt.iterate(...params) as IterableIterator<string>) {
    let record: Record<string, unknown> | undefined;
    if (residual) {
      record = JSON.parse(raw) as Record<string, unknown>;
      if (!residual(record)) continue;
    }
    yield [raw, record];
    if (q.limit !== undefined && ++n >= q.limit) return;
  }
}

/** The matching records in order (ties broken by id in the same direction), parsed one at a time. */
export function* listRecords(db: Database.Database, q: ArchiveListing): Generator<Record<string, unknown>> {
  for (const [text, record] of matchingRows(db, q)) yield record ?? (JSON.parse(text) as Record<string, unknown>);
}

/**
 * The same records as stored: JSON.stringify's text of each (upsert.ts), for output that is JSON anyway
 * and need not parse a record only to serialize it again.
 */
export function* listRecordTexts(db: Database.Database, q: ArchiveListing): Generator<string> {
  for (const [text] of matchingRows(db, q)) yield text;
}
