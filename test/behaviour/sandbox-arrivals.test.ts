// New records arriving on the sandbox clock show up at the head of the feed, published at their arrival time.
import { afterAll, expect, it } from 'vitest';
import { SpecRecallSchema } from '../../src/api/schemas.js';
import { closeAgent, get } from './sandbox-helpers.js';
import { trackedSandbox } from '../helpers/sandbox.js';

afterAll(closeAgent);

it('adds arrivalsPerMinute records per minute of sandbox time, lazily and deterministically', async () => {
  const T0 = Date.parse('2026-03-10T12:00:00.000Z');
  let now = T0;
  const sb = await trackedSandbox({ recordCount: 50, clock: () => now, arrivalsPerMinute: 6, rateLimits: false });
  try {
    expect(sb.records()).toHaveLength(53);
    now = T0 + 30_000;
    const half = await get(sb.url, '/v1/recalls/feed?limit=5');
    expect(half.json.pagination.total_count).toBe(53);
    now = T0 + 60_000;
    const page = await get(sb.url, '/v1/recalls/feed?limit=6');
    expect(page.json.pagination.total_count).toBe(56);
    const arrived = page.json.data.slice(0, 6);
    expect(arrived.map((r: { published_at: string }) => r.published_at)).toEqual([
      '2026-03-10T12:01:00',
      '2026-03-10T12:00:50',
      '2026-03-10T12:00:40',
      '2026-03-10T12:00:30',
      '2026-03-10T12:00:20',
      '2026-03-10T12:00:10',
    ]);
    for (const r of arrived) {
      SpecRecallSchema.parse(r);
      expect(r.created_in_db_at.startsWith(r.published_at)).toBe(true);
      expect(r.updated_at).toBe(r.published_at);
    }
    const ids = arrived.map((r: { id: number }) => r.id);
    expect(Math.min(...ids)).toBeGreaterThan(
      Math.max(
        ...sb
          .records()
          .filter((r) => !ids.includes(r.id))
          .map((r) => r.id),
      ),
    );

    const again = await trackedSandbox({ recordCount: 50, clock: () => now, startTime: T0, arrivalsPerMinute: 6 });
    expect(again.records()).toEqual(sb.records());
    await again.close();
  } finally {
    await sb.close();
  }
});
