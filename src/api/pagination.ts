// Cursor paging as an async iterable, with the guards that keep a misbehaving server from looping us forever.
import { PaginationError, ValidationError } from './api-errors.js';
import type { FeedPage } from './schemas.js';

/** A page as the pager yields it: the server's page, plus where it sits in the cursor chain. */
export interface PagedResult<R> extends FeedPage<R> {
  /** The cursor sent to get this page (undefined for the first page of a fresh run). */
  cursor: string | undefined;
  /**
   * The cursor that continues right after this page; undefined on the last page, and on a page that said has_more
   * but sent no next_cursor (asked for the next page, the pager then throws PaginationError).
   */
  nextCursor: string | undefined;
  /** Records dropped from `data` because an earlier page of this run already had their id. */
  duplicates: number;
  /**
   * On the first page after the API refused a next_cursor it had sent: its refusal. The pager then started
   * the chain over from the run's first page; the ids already yielded are not yielded again.
   */
  restartedAfter?: string;
}

/** A page said has_more and sent no next_cursor. */
export const NO_NEXT_CURSOR = 'the API said more pages follow but sent no next_cursor';

/** How often one run starts its chain over after the API refused its own cursor; the next refusal ends it. */
const CURSOR_RESTARTS = 1;

/**
 * Pages in a row, each with a new next_cursor, that bring no record not already yielded in this run (or none at all):
 * a server that ignores the cursor. Past this many, paging stops rather than spend the quota.
 */
export const STALE_PAGES = 3;

/**
 * The most pages a chain may take for the largest total_count its pages reported: twice the pages that total
 * needs, and ten more, since records arrive while it pages.
 */
export function pageBudget(totalCount: number, pageSize: number): number {
  return 2 * Math.ceil(Math.max(0, totalCount) / Math.max(1, pageSize)) + 10;
}

/**
 * The API refused `cursor` itself: a validation error (400, or FastAPI's 422) that names the cursor in its message or
 * details (the sandbox: `Invalid cursor: expired`, with `details.provided`; FastAPI: `loc` ending in `cursor`). For a
 * cursor the caller gave, any other validation error refuses other parameters. For one the API sent in this chain,
 * see refusesIssuedCursor.
 */
export function refusesCursor(err: unknown, cursor: string | undefined): boolean {
  if (cursor === undefined || !(err instanceof ValidationError)) return false;
  if (/\bcursor\b/i.test(err.message)) return true;
  const d = err.details ?? {};
  return d.provided === cursor || ['parameter', 'param', 'field', 'name'].some((k) => d[k] === 'cursor');
}

/**
 * The API refused a `cursor` it sent itself in this chain (not `startCursor`, the caller's): any validation error, in
 * whatever words (`Pagination token has expired`), since the chain's first request already took every other parameter.
 */
export function refusesIssuedCursor(
  err: unknown,
  cursor: string | undefined,
  startCursor: string | undefined,
): boolean {
  return cursor !== undefined && cursor !== startCursor && err instanceof ValidationError;
}

/**
 * Follows `next_cursor` until `has_more` is false. A cursor seen before, or a page that says has_more without a
 * cursor once the next page is asked for, is a PaginationError rather than an endless loop; so are STALE_PAGES pages
 * in a row with nothing new, and more pages than pageBudget allows for the total_count. Records whose `id` was already
 * yielded in this run are dropped (pages can shift while we page). A next_cursor the API sent and then
 * refuses (it expired: any validation error, refusesIssuedCursor) starts the chain over from `startCursor` once;
 * refused again, it is a PaginationError naming the cursor. A refused `startCursor` itself is the caller's input:
 * its ValidationError is thrown as is.
 */
export async function* paginate<R>(
  fetchPage: (cursor: string | undefined) => Promise<FeedPage<R>>,
  startCursor?: string,
): AsyncGenerator<PagedResult<R>> {
  const seenIds = new Set<unknown>();
  let seenCursors = new Set<string>(startCursor === undefined ? [] : [startCursor]);
  let cursor = startCursor;
  let restarts = 0;
  let restartedAfter: string | undefined;
  /** Pages since the chain (re)started, and pages in a row with nothing new. */
  let pages = 0;
  let stale = 0;
  /** After a restart, the pages the chain had walked before it: their records come again, so they are never stale. */
  let rewalk = 0;
  let largestTotal = 0;
  for (;;) {
    let page: FeedPage<R>;
    try {
      page = await fetchPage(cursor);
    } catch (err) {
      // The start cursor is the caller's: refused on the first request, its error is theirs.
      const refused = refusesIssuedCursor(err, cursor, startCursor) || (restarts > 0 && refusesCursor(err, cursor));
      if (!refused) throw err;
      const refusal = (err as Error).message;
      if (restarts >= CURSOR_RESTARTS) {
        throw new PaginationError(
          `the API refused the next_cursor it had sent (${refusal}), again after starting over from the first page`,
          { status: (err as ValidationError).status, refusedCursor: cursor },
        );
      }
      restarts++;
      restartedAfter = refusal;
      // Started over, the chain first meets again the pages it had: those bring nothing new.
      rewalk = Math.max(rewalk, pages);
      pages = 0;
      stale = 0;
      cursor = startCursor;
      seenCursors = new Set(startCursor === undefined ? [] : [startCursor]);
      continue;
    }
    const raw = page.pagination.next_cursor;
    const next = typeof raw === 'string' && raw !== '' ? raw : undefined;
    const more = page.pagination.has_more;
    pages++;
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
    if (data.length > 0) {
      stale = 0;
    } else if (pages > rewalk) stale++;
    largestTotal = Math.max(largestTotal, page.pagination.total_count);
    const restart = restartedAfter === undefined ? {} : { restartedAfter };
    restartedAfter = undefined;
    yield {
      ...page,
      data,
      cursor,
      nextCursor: more ? next : undefined,
      duplicates: page.data.length - data.length,
      ...restart,
    };
    // Checked only now, when the next page is wanted: a caller that takes one page needs no cursor.
    if (!more) return;
    if (next === undefined) throw new PaginationError(NO_NEXT_CURSOR);
    if (stale >= STALE_PAGES) {
      throw new PaginationError(
        `the API sent ${stale} pages in a row with no record it had not already sent in this run, each with a new next_cursor: paging stopped rather than spend requests on it`,
      );
    }
    if (pages >= pageBudget(largestTotal, page.pagination.limit)) {
      throw new PaginationError(
        `the API still said more pages follow after ${pages} pages of up to ${page.pagination.limit} records, for a total_count of ${largestTotal}: paging stopped rather than spend requests on it`,
      );
    }
    seenCursors.add(next);
    cursor = next;
  }
}
