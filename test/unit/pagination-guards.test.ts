// The pager's guards against paging without end, checked when the next page is wanted: a page that says more follow
// without a cursor is still yielded; pages with nothing new, or far more pages than total_count needs, stop it; a
// chain started over after a refused cursor may meet its old pages again.
import { describe, expect, it } from 'vitest';
import { PaginationError, ValidationError } from '../../src/api/api-errors.js';
import { pageBudget, paginate, STALE_PAGES } from '../../src/api/pagination.js';
import type { FeedPage } from '../../src/api/schemas.js';

type Rec = { id: number };

function page(ids: number[], has_more: boolean, next_cursor: string | null, total_count = 99): FeedPage<Rec> {
  return {
    data: ids.map((id) => ({ id })),
    pagination: { total_count, returned_count: ids.length, limit: 2, has_more, next_cursor },
    meta: { filters_applied: {}, processing_time_ms: 1, timestamp: 't' },
    rate_limit: { limits: {}, remaining_credits: 1 },
    data_sources: { available: [], requested: [], filtered: [] },
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('has_more without a next_cursor', () => {
  it('the page is yielded; only asking for the next one throws', async () => {
    const sent: (string | undefined)[] = [];
    const pages = paginate(async (c) => {
      sent.push(c);
      return page([1, 2], true, null);
    });
    const first = await pages.next();
    expect(first.value?.data).toEqual([{ id: 1 }, { id: 2 }]);
    expect(first.value?.nextCursor).toBeUndefined();
    const err = await failure(pages.next());
    expect(err).toBeInstanceOf(PaginationError);
    expect((err as Error).message).toBe('the API said more pages follow but sent no next_cursor');
    expect(sent).toEqual([undefined]);
  });

  it('a caller that takes one page and stops sees no error', async () => {
    const ids: number[] = [];
    for await (const p of paginate(async () => page([1, 2], true, ''))) {
      ids.push(...p.data.map((r) => r.id));
      break;
    }
    expect(ids).toEqual([1, 2]);
  });
});

describe('pages with nothing new', () => {
  it(`stops after ${STALE_PAGES} in a row, each with a new cursor`, async () => {
    let n = 0;
    const yielded: number[][] = [];
    const err = await failure(
      (async () => {
        for await (const p of paginate(async () => page([1, 2], true, `c${++n}`)))
          yielded.push(p.data.map((r) => r.id));
      })(),
    );
    expect(err).toBeInstanceOf(PaginationError);
    expect(yielded).toEqual([[1, 2], [], [], []]);
    expect(n).toBe(4);
  });

  it('a page with one new record among old ones starts the count again', async () => {
    // 1,2 | 1,2 | 1,2 | 1,3 | 1,3 | 1,3 | 1,3: pages 2-3 stale, 4 new, 5-7 stale: the 7th ends it.
    const script = [[1, 2], [1, 2], [1, 2], [1, 3], [1, 3], [1, 3], [1, 3], [9]];
    let n = 0;
    const err = await failure(
      (async () => {
        for await (const _ of paginate(async () => page(script[n++]!, true, `c${n}`)));
      })(),
    );
    expect(err).toBeInstanceOf(PaginationError);
    expect(n).toBe(7);
  });

  it('started over after a refused cursor, the chain may meet its old pages again', async () => {
    // Five pages, the 5th's cursor refused once: the chain starts over and meets pages 1-4 again (nothing new).
    let refused = false;
    const chain: Record<string, FeedPage<Rec>> = {
      first: page([1], true, 'a'),
      a: page([2], true, 'b'),
      b: page([3], true, 'c'),
      c: page([4], true, 'd'),
      d: page([5], true, 'e'),
      e: page([6], false, null),
    };
    const ids: number[] = [];
    for await (const p of paginate(async (c) => {
      if (c === 'e' && !refused) {
        refused = true;
        throw new ValidationError({ status: 400, code: 'validation_error', message: 'Invalid cursor: expired' });
      }
      return chain[c ?? 'first']!;
    })) {
      ids.push(...p.data.map((r) => r.id));
    }
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('more pages than total_count needs', () => {
  it('allows twice the pages needed and ten more', () => {
    expect(pageBudget(10, 50)).toBe(12);
    expect(pageBudget(1000, 500)).toBe(14);
    expect(pageBudget(0, 50)).toBe(10);
    expect(pageBudget(7, 0)).toBe(24);
  });

  it('stops at the budget of the largest total_count seen, records arriving meanwhile allowed for', async () => {
    // Pages of 2: total 4 needs 2 pages, budget 14; a page reporting 10 raises it to 2 * 5 + 10 = 20.
    let n = 0;
    const err = await failure(
      (async () => {
        for await (const _ of paginate(async () => {
          n++;
          return page([2 * n - 1, 2 * n], true, `c${n}`, n === 3 ? 10 : 4);
        }));
      })(),
    );
    expect(err).toBeInstanceOf(PaginationError);
    expect((err as Error).message).toMatch(
      /^the API still said more pages follow after 20 pages of up to 2 records, for a total_count of 10/,
    );
    expect(n).toBe(20);
  });
});

describe('starting over after a refused cursor, while a record arrives', () => {
  it('walks the pages it had again without calling them stale, and yields every record once', async () => {
    // A newest-first feed of 40, pages of 5; the cursor after page 6 is refused once, and record 41 arrives meanwhile.
    let ids = Array.from({ length: 40 }, (_, i) => 40 - i);
    let refused = false;
    const fetch = async (cursor: string | undefined): Promise<FeedPage<{ id: number }>> => {
      if (cursor === 'expiring' && !refused) {
        refused = true;
        ids = [41, ...ids];
        throw new ValidationError({ status: 400, code: 'validation_error', message: 'Invalid cursor: expired' });
      }
      const start = cursor === undefined ? 0 : ids.indexOf(Number(cursor.slice(2))) + 1;
      const data = ids.slice(start, start + 5).map((id) => ({ id }));
      const more = start + 5 < ids.length;
      const next = !more ? null : start === 25 && !refused ? 'expiring' : `c:${data.at(-1)!.id}`;
      return {
        data,
        pagination: {
          total_count: ids.length,
          returned_count: data.length,
          limit: 5,
          has_more: more,
          next_cursor: next,
        },
      } as FeedPage<{ id: number }>;
    };
    const got: number[] = [];
    for await (const page of paginate(fetch)) got.push(...page.data.map((r) => r.id));
    expect(got.sort((a, b) => a - b)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
  });
});
