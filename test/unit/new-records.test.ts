// One poll for --state and --watch: only records not written before, at most --max, oldest first; ids required.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/runtime/cli-errors.js';
import { oldestFirst, pollNew, remember, windowClock } from '../../src/jobs/watch/new-records.js';
import type { FeedRecord, Page } from '../../src/jobs/watch/pages.js';
import { SeenState } from '../../src/jobs/watch/seen-state.js';
import { pollSummary } from '../../src/jobs/watch/watch.js';

const rec = (id: unknown, published_at?: string): FeedRecord =>
  published_at === undefined ? { id } : { id, published_at };

/** Pages as the client yields them, counting how many were asked for. */
function pages(...data: FeedRecord[][]) {
  const asked = { count: 0 };
  async function* gen(): AsyncGenerator<Page> {
    for (const d of data) {
      asked.count++;
      yield { data: d } as unknown as Page;
    }
  }
  return { gen: gen(), asked };
}

const signal = new AbortController().signal;
const opts = (state: SeenState, more: { max?: number; custom?: string } = {}) => ({
  state,
  custom: undefined,
  flag: '--state',
  signal,
  ...more,
});

describe('pollNew', () => {
  it('keeps what the state has not seen, once, oldest first', async () => {
    const state = SeenState.memory();
    state.add(2, 0);
    const p = pages(
      [rec(4, '2026-01-01T10:04:00'), rec(3, '2026-01-01T10:03:00'), rec(2, '2026-01-01T10:02:00')],
      // A record that moved between pages comes twice; ids may be strings.
      [rec(3, '2026-01-01T10:03:00'), rec('a', '2026-01-01T10:03:00'), rec(1, '2026-01-01T10:01:00')],
    );
    const poll = await pollNew(p.gen, opts(state));
    expect(poll.records.map((r) => r.id)).toEqual([1, 3, 'a', 4]);
    expect(poll.pages).toBe(2);
  });

  it('with max, stops asking for pages once it has enough new records', async () => {
    const state = SeenState.memory();
    state.add(10, 0);
    const p = pages([rec(10), rec(9)], [rec(8), rec(7)], [rec(6)]);
    const poll = await pollNew(p.gen, opts(state, { max: 2 }));
    expect(poll.records.map((r) => r.id).sort()).toEqual([8, 9]);
    expect(p.asked.count).toBe(2);
  });

  it('refuses records without a usable id, naming the feed, before anything is returned', async () => {
    for (const bad of [undefined, null, '', Number.NaN, { nested: 1 }]) {
      const p = pages([rec(1)], [rec(bad)]);
      const err = await pollNew(p.gen, opts(SeenState.memory(), { custom: 'demo' })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toBe(
        "--state needs an id in every record, and the custom feed 'demo' sent records without one",
      );
    }
  });
});

describe('oldestFirst', () => {
  it('orders by published_at (naive UTC or with an offset), then id; records without a date go last', () => {
    const records = [
      rec(5),
      rec(3, '2026-01-01T12:00:00+02:00'),
      rec(2, '2026-01-01T10:00:00'),
      rec(1, '2026-01-01T11:00:00Z'),
      rec(4, '2026-01-01T09:00:00Z'),
    ];
    expect(oldestFirst(records).map((r) => r.id)).toEqual([4, 2, 3, 1, 5]);
  });
});

describe('remember', () => {
  it('adds the ids with their publication time and prunes what no window returns', () => {
    const state = SeenState.memory();
    const now = Date.parse('2026-01-02T12:00:00Z');
    state.add('old', now - 26 * 3_600_000);
    remember(state, [rec(1, '2026-01-02T11:00:00')], now);
    expect([state.has(1), state.has('old'), state.size]).toEqual([true, false, 1]);
  });
});

describe('windowClock', () => {
  const now = Date.parse('2026-01-02T12:00:00Z');
  const HOUR = 3_600_000;
  it("the server's clock when it runs behind ours, up to 14 hours (a clock kept in local time)", () => {
    expect(windowClock(now, now - 2 * HOUR)).toBe(now - 2 * HOUR);
    expect(windowClock(now, now - 14 * HOUR)).toBe(now - 14 * HOUR);
  });

  it("ours when the server's runs ahead, says nothing, or is further back (a stale page): no id kept for ever", () => {
    expect(windowClock(now, now + HOUR)).toBe(now);
    expect(windowClock(now, undefined)).toBe(now);
    expect(windowClock(now, now - 14 * HOUR - 1)).toBe(now);
    expect(windowClock(now, Date.parse('2001-01-01T00:00:00Z'))).toBe(now);
  });

  it('remember prunes by it: a page stamped in 2001 does not keep a 3-day-old id', () => {
    const state = SeenState.memory();
    state.add('old', now - 3 * 24 * HOUR);
    remember(state, [rec(1, '2026-01-02T11:00:00')], now, Date.parse('2001-01-01T00:00:00Z'));
    expect([state.has(1), state.has('old')]).toEqual([true, false]);
  });
});

describe('pollSummary', () => {
  it('says a skipped first poll printed nothing on purpose', () => {
    const at = Date.parse('2026-01-02T12:34:56Z');
    expect(pollSummary(at, 602, true, 49_000)).toBe(
      'last poll 12:34:56 · 602 existing recalls remembered, not printed · quota left 49,000',
    );
    expect(pollSummary(at, 3, false, undefined)).toBe('last poll 12:34:56 · 3 new');
  });
});
