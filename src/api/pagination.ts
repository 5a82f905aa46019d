// Cursor paging as an async iterable, with the guards that keep a misbehaving server from looping us forever.
import { PaginationError } from './api-errors.js';
import type { FeedPage } from './schemas.js';

/** A page as the pager yields it: the server's page, plus where it sits in the cursor chain. */
export interface PagedResult<R> extends FeedPage<R> {
  /** The cursor sent to get this page (undefined for the first page of a fresh run). */
  cursor: string | undefined;
  /** The cursor that continues right after this page; undefined on the last page. */
  nextCursor: string | undefined;
  /** Records dropped from `data` because an earlier page of this run already had their id. */
  duplicates: number;
}

/**
 * Follows `next_cursor` until `has_more` is false. A page that says has_more without a cursor, or a
 * cursor seen before, is a PaginationError rather than an endless loop. Records whose `id` was already
 * yielded in this run are dropped (pages can shift while we page).
 */
export async function* paginate<R>(
  fetchPage: (cursor: string | undefined) => Promise<FeedPage<R>>,
  startCursor?: string,
): AsyncGenerator<PagedResult<R>> {
  const seenCursors = new Set<string>();
  const seenIds = new Set<unknown>();
  let cursor = startCursor;
  if (cursor !== undefined) seenCursors.add(cursor);
  for (;;) {
    const page = await fetchPage(cursor);
    const raw = page.pagination.next_cursor;
    const next = typeof raw === 'string' && raw !== '' ? raw : undefined;
    const more = page.pagination.has_more;
    if (more && next === undefined) {
      throw new PaginationError('the API said more pages follow but sent no next_cursor');
    }
    if (more && next !== undefined && seenCursors.has(next)) {
      throw new PaginationError('the API sent a next_cursor it had already sent in this run');
    }
    const data: R[] = [];
    for (const record of page.data) {
      const id = (record as { id?: unknown }).id;
      if (id !== undefined) {
        if (seenIds.has(id)) continue;
        seenIds.add(id);
      }
      data.push(record);
    }
    yield { ...page, data, cursor, nextCursor: more ? next : undefined, duplicates: page.data.length - data.length };
    if (!more || next === undefined) return;
    seenCursors.add(next);
    cursor = next;
  }
}
