// Cursor paging as an async iterable, with the guards that keep a misbehaving server from looping us forever.
import { PaginationError, ValidationError } from './api-errors.js';
import type { FeedPage } from './schemas.js';

/** A page as the pager yields it: the server's page, plus where it sits in the cursor chain. */
export interface PagedResult<R> extends FeedPage<R> {
  /** The cursor sent to get this page (undefined for the first page of a fresh run). */
  cursor: string | undefined;
  /** The cursor that continues right after this page; undefined on the last page. */
  nextCursor: string | undefined;
  /** Records dropped from `data` because an earlier page of this run already had their id. */
  duplicates: number;
  /**
   * On the first page after the API refused a next_cursor it had sent: its refusal. The pager then started
   * the chain over from the run's first page; the ids already yielded are not yielded again.
   */
  restartedAfter?: string;
}

/** How often one run starts its chain over after the API refused its own cursor; the next refusal ends it. */
const CURSOR_RESTARTS = 1;

/**
 * The API refused `cursor` itself: a validation error (400) that names the cursor in its message or details
 * (the sandbox: `Invalid cursor: expired`, with `details.provided`). Any other 400 refuses other parameters.
 */
export function refusesCursor(err: unknown, cursor: string | undefined): boolean {
  if (cursor === undefined || !(err instanceof ValidationError)) return false;
  if (/\bcursor\b/i.test(err.message)) return true;
  const d = err.details ?? {};
  return d.provided === cursor || ['parameter', 'param', 'field', 'name'].some((k) => d[k] === 'cursor');
}

/**
 * Follows `next_cursor` until `has_more` is false. A page that says has_more without a cursor, or a
 * cursor seen before, is a PaginationError rather than an endless loop. Records whose `id` was already
 * yielded in this run are dropped (pages can shift while we page). A next_cursor the API sent and then
 * refuses (it expired) starts the chain over from `startCursor` once; refused again, it is a PaginationError
 * naming the cursor. A refused `startCursor` itself is the caller's input: its ValidationError is thrown as is.
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
  for (;;) {
    let page: FeedPage<R>;
    try {
      page = await fetchPage(cursor);
    } catch (err) {
      if (!refusesCursor(err, cursor) || (restarts === 0 && cursor === startCursor)) throw err;
      const refusal = (err as Error).message;
      if (restarts >= CURSOR_RESTARTS) {
        throw new PaginationError(
          `the API refused the next_cursor it had sent (${refusal}), again after starting over from the first page`,
          { status: (err as ValidationError).status, refusedCursor: cursor },
        );
      }
      restarts++;
      restartedAfter = refusal;
      cursor = startCursor;
      seenCursors = new Set(startCursor === undefined ? [] : [startCursor]);
      continue;
    }
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
    if (!more || next === undefined) return;
    seenCursors.add(next);
    cursor = next;
  }
}
