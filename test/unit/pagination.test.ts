import { describe, expect, it } from 'vitest';
import { PaginationError } from '../../src/api/api-errors.js';
import { paginate } from '../../src/api/pagination.js';
import type { FeedPage } from '../../src/api/schemas.js';

type Rec = { id: number };

function page(ids: number[], has_more: boolean, next_cursor?: string | null): FeedPage<Rec> {
  const pagination: FeedPage<Rec>['pagination'] = { total_count: 99, returned_count: ids.length, limit: 2, has_more };
  if (next_cursor !== undefined) pagination.next_cursor = next_cursor;
  return {
    data: ids.map((id) => ({ id })),
    pagination,
    meta: { filters_applied: {}, processing_time_ms: 1, timestamp: 't' },
    rate_limit: { limits: {}, remaining_credits: 1 },
    data_sources: { available: [], requested: [], filtered: [] },
  };
}

async function collect(pages: Record<string, FeedPage<Rec>>, start?: string) {
  const sent: (string | undefined)[] = [];
  const out: { ids: number[]; cursor?: string; next?: string }[] = [];
  for await (const p of paginate(async (c) => {
    sent.push(c);
    const found = pages[c ?? 'first'];
    if (!found) throw new Error(`unexpected cursor ${c}`);
    return found;
  }, start)) {
    out.push({ ids: p.data.map((r) => r.id), cursor: p.cursor, next: p.nextCursor });
  }
  return { sent, out };
}

describe('paginate', () => {
  it('follows next_cursor until has_more is false', async () => {
    const { sent, out } = await collect({
      first: page([1, 2], true, 'a'),
      a: page([3, 4], true, 'b'),
      b: page([5], false, null),
    });
    expect(sent).toEqual([undefined, 'a', 'b']);
    expect(out).toEqual([
      { ids: [1, 2], cursor: undefined, next: 'a' },
      { ids: [3, 4], cursor: 'a', next: 'b' },
      { ids: [5], cursor: 'b', next: undefined },
    ]);
  });

  it('stops on has_more false whatever the cursor is', async () => {
    for (const last of [null, '', undefined, 'stale']) {
      const { sent } = await collect({ first: page([1], false, last) });
      expect(sent).toEqual([undefined]);
    }
  });

  it('starts at a given cursor', async () => {
    const { sent } = await collect({ x: page([9], false, null) }, 'x');
    expect(sent).toEqual(['x']);
  });

  it('raises PaginationError when has_more comes without a cursor', async () => {
    for (const missing of [null, '', undefined]) {
      await expect(collect({ first: page([1], true, missing) })).rejects.toBeInstanceOf(PaginationError);
    }
  });

  it('raises PaginationError when a cursor repeats, instead of looping', async () => {
    await expect(collect({ first: page([1], true, 'a'), a: page([2], true, 'a') })).rejects.toThrow(/already sent/);
    await expect(
      collect({ first: page([1], true, 'a'), a: page([2], true, 'b'), b: page([3], true, 'a') }),
    ).rejects.toBeInstanceOf(PaginationError);
    await expect(collect({ s: page([1], true, 's') }, 's')).rejects.toBeInstanceOf(PaginationError);
  });

  it('drops records already yielded in this run, and counts them', async () => {
    const seen: number[] = [];
    let dups = 0;
    const pages: Record<string, FeedPage<Rec>> = { first: page([1, 2], true, 'a'), a: page([2, 3], false, null) };
    for await (const p of paginate(async (c) => pages[c ?? 'first'] as FeedPage<Rec>)) {
      seen.push(...p.data.map((r) => r.id));
      dups += p.duplicates;
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(dups).toBe(1);
  });
});
