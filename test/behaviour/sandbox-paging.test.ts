// Paging over real HTTP: every sort field and order, page sizes 1/7/50/500, each record exactly once, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedResponseSchema, SORT_FIELDS, SORT_ORDERS, type SpecRecall } from '../../src/api/schemas.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { LIMITED, closeAgent, get } from './sandbox-helpers.js';

let sb: Sandbox;
let startedAt: number;
beforeAll(async () => {
  startedAt = Date.now();
  sb = await startSandbox({ rateLimits: false, recordCount: 1000, seed: 42, startTime: startedAt });
});
afterAll(async () => {
  await sb.close();
  await closeAgent();
});

/** Expected order, computed independently: the generated formats sort as strings, ties broken by id. */
function expected(
  records: SpecRecall[],
  field: (typeof SORT_FIELDS)[number],
  order: 'asc' | 'desc',
  hours = 24,
): number[] {
  const since = new Date(Date.now() - hours * 3_600_000).toISOString().slice(0, 19);
  const inWindow = records.filter((r) => r.published_at >= since);
  inWindow.sort((a, b) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id - b.id));
  if (order === 'desc') inWindow.reverse();
  return inWindow.map((r) => r.id);
}

async function pageAll(query: string, key?: string): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | null = null;
  let total: number | undefined;
  let pages = 0;
  const cursors = new Set<string>();
  for (;;) {
    const res = await get(
      sb.url,
      `/v1/recalls/feed?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      key,
    );
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text}`);
    const p = res.json;
    pages++;
    total ??= p.pagination.total_count;
    if (p.pagination.total_count !== total) throw new Error('total_count changed between pages');
    if (p.pagination.returned_count !== p.data.length) throw new Error('returned_count differs from data length');
    for (const r of p.data) ids.push(r.id);
    if (!p.pagination.has_more) {
      if (p.pagination.next_cursor !== null) throw new Error('last page must carry next_cursor null');
      if (ids.length !== total) throw new Error(`paged ${ids.length} records, total_count says ${total}`);
      return { ids, pages };
    }
    if (typeof p.pagination.next_cursor !== 'string' || cursors.has(p.pagination.next_cursor))
      throw new Error('bad or repeated cursor');
    cursors.add(p.pagination.next_cursor);
    cursor = p.pagination.next_cursor;
  }
}

describe('paging', () => {
  it('has ties in every sort field, so the id tie-break matters', () => {
    const records = sb.records();
    for (const f of SORT_FIELDS) {
      const counts = new Map<string, number>();
      for (const r of records) counts.set(r[f], (counts.get(r[f]) ?? 0) + 1);
      expect([...counts.values()].filter((n) => n > 1).length, f).toBeGreaterThan(5);
    }
  });

  for (const field of SORT_FIELDS) {
    for (const order of SORT_ORDERS) {
      it(`returns each record once, in order, sort_by=${field} sort_order=${order}, page sizes 1, 7, 50, 500`, async () => {
        const want = expected(sb.records(), field, order);
        expect(want.length).toBeGreaterThanOrEqual(1000);
        // The four walks run side by side on separate connections; each is sequential in itself.
        const sizes = [1, 7, 50, 500];
        const walks = await Promise.all(
          sizes.map((size) => pageAll(`limit=${size}&sort_by=${field}&sort_order=${order}`)),
        );
        walks.forEach(({ ids, pages }, i) => {
          const size = sizes[i] as number;
          expect(ids, `page size ${size}`).toEqual(want);
          expect(pages).toBe(Math.ceil(want.length / size));
        });
      });
    }
  }

  it('pages a source subset and a shorter window the same way, and older records never appear', async () => {
    const records = sb.records();
    const limitedSources = new Set(['us_cpsc', 'uk_opss']);
    const want = expected(
      records.filter((r) => limitedSources.has(r.data_source)),
      'updated_at',
      'asc',
      6,
    );
    const { ids } = await pageAll('limit=13&sort_by=updated_at&sort_order=asc&hours_ago=6', LIMITED);
    expect(ids).toEqual(want);
    const cutoff = new Date(startedAt - 24 * 3_600_000).toISOString().slice(0, 19);
    const older = new Set(records.filter((r) => r.published_at < cutoff).map((r) => r.id));
    expect(older.size).toBe(50);
    const { ids: everything } = await pageAll('limit=500&sort_order=asc');
    expect(everything.filter((id) => older.has(id))).toEqual([]);
  });

  it('every page parses with FeedResponseSchema, the last one included', async () => {
    const first = await get(sb.url, '/v1/recalls/feed?limit=500');
    FeedResponseSchema.parse(first.json);
    const second = await get(
      sb.url,
      `/v1/recalls/feed?limit=500&cursor=${encodeURIComponent(first.json.pagination.next_cursor)}`,
    );
    // 1000 records in two pages of 500: the second is the last, with no empty page after it.
    const last = FeedResponseSchema.parse(second.json);
    expect(last.pagination).toMatchObject({
      has_more: false,
      next_cursor: null,
      total_count: 1000,
      returned_count: 500,
    });
  });
});
