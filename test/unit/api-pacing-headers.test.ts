// Pacing on the server's own count: X-RateLimit-Remaining-* / X-RateLimit-Reset-* headers, measured against Date.
import { describe, expect, it } from 'vitest';
import { WaitTooLongError } from '../../src/api/api-errors.js';
import type { ClientOptions } from '../../src/api/client.js';
import { Pacer } from '../../src/api/pacing.js';
import { windowReports } from '../../src/api/rate-limit-headers.js';
import { feedBody, scriptedServer, type Scripted } from '../helpers/scripted-server.js';
import { feedIds, virtualClient } from '../helpers/virtual-client.js';

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  published_at: '2025-12-11T00:00:00',
  updated_at: '2025-12-11T00:00:00',
  created_in_db_at: '2025-12-11T00:00:01.000000+00:00',
});

/** The server's clock: the answers' Date header. Ours runs 2 minutes fast, which must not matter. */
const SERVER_NOW = 'Tue, 10 Mar 2026 12:00:00 GMT';
const LOCAL_START = Date.parse('2026-03-10T12:02:00Z');
/** Unix seconds of 12:00:42 on the server's clock: 42 s after its Date. */
const RESET_MINUTE = String(Date.UTC(2026, 2, 10, 12, 0, 42) / 1000);

/** Page n of `total`, answered with the given headers. */
function page(n: number, total: number, headers: Record<string, string> = {}): Scripted {
  const more = n < total;
  return { body: feedBody([record(n)], { hasMore: more, next: more ? `c${n}` : null }), headers };
}

const minute = (remaining: number, extra: Record<string, string> = {}) => ({
  date: SERVER_NOW,
  'x-ratelimit-limit-minute': '60',
  'x-ratelimit-remaining-minute': String(remaining),
  'x-ratelimit-reset-minute': RESET_MINUTE,
  ...extra,
});

/** A client on a virtual clock: sleeping moves the time and returns at once. */
async function setup(script: Scripted[], opts: ClientOptions = {}) {
  const srv = await scriptedServer(script);
  const { client, sleeps, events } = virtualClient(srv.url, LOCAL_START, opts);
  const budgets = () => events.flatMap((e) => (e.type === 'response' ? [e.minuteRemaining] : []));
  return { client, srv, sleeps, events, budgets };
}

const ids = feedIds;

describe('pacing on the X-RateLimit headers', () => {
  it('answers with Remaining 3, 2, 1, 0: the 5th request waits for the reset, measured against Date', async () => {
    const { client, srv, sleeps, events, budgets } = await setup([
      page(1, 5, minute(3)),
      page(2, 5, minute(2)),
      page(3, 5, minute(1)),
      page(4, 5, minute(0)),
      page(5, 5, minute(59)),
    ]);
    expect(await ids(client)).toEqual([1, 2, 3, 4, 5]);
    // Reset 12:00:42 on a server whose Date says 12:00:00; our clock's 12:02:00 plays no part.
    expect(sleeps).toEqual([42_000]);
    expect(events.filter((e) => e.type === 'wait')).toEqual([
      { type: 'wait', reason: 'pacing', ms: 42_000, window: 'minute' },
    ]);
    // The -v line's budget is the server's count, not 60 less our own 1..5.
    expect(budgets()).toEqual([3, 2, 1, 0, 59]);
    expect(srv.requests).toHaveLength(5);
  });

  it('with no Date header, waits until its own oldest request in the window has left it', async () => {
    const noDate = { 'x-ratelimit-remaining-minute': '0', 'x-ratelimit-reset-minute': RESET_MINUTE };
    const { client, sleeps } = await setup([page(1, 2, noDate), page(2, 2)]);
    expect(await ids(client)).toEqual([1, 2]);
    // Our one request was answered at LOCAL_START: the window frees it 60 s later.
    expect(sleeps).toEqual([60_000]);
  });

  it('does not believe a reset further off than the window (a Date not on the server clock)', async () => {
    const farReset = String(Date.UTC(2026, 2, 10, 12, 5, 0) / 1000);
    const { client, sleeps } = await setup([
      page(1, 2, minute(0, { 'x-ratelimit-reset-minute': farReset })),
      page(2, 2),
    ]);
    expect(await ids(client)).toEqual([1, 2]);
    expect(sleeps).toEqual([60_000]);
  });

  it('a spent hour with no reset header is a wait too long: nothing more is sent', async () => {
    const hour = { date: SERVER_NOW, 'x-ratelimit-remaining-hour': '0', 'x-ratelimit-remaining-minute': '50' };
    const { client, srv, sleeps } = await setup([page(1, 2, hour)], { maxWaitMs: 120_000 });
    const err = await ids(client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTooLongError);
    expect((err as WaitTooLongError).message).toBe('the hour limit allows the next request only in 3600 s');
    expect(sleeps).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });

  it('a reset beyond --max-wait gives up before sending the request it knows would be refused', async () => {
    const { client, srv, sleeps } = await setup([page(1, 2, minute(0))], { maxWaitMs: 30_000 });
    const err = await ids(client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTooLongError);
    expect((err as WaitTooLongError).limitType).toBe('minute');
    expect((err as WaitTooLongError).message).toBe('the minute limit allows the next request only in 42 s');
    expect(sleeps).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });

  it('without the headers nothing changes: our own tally, the spec limits', async () => {
    const { client, sleeps, budgets } = await setup([page(1, 3), page(2, 3), page(3, 3)]);
    expect(await ids(client)).toEqual([1, 2, 3]);
    expect(sleeps).toEqual([]);
    expect(budgets()).toEqual([59, 58, 57]);
  });
});

describe('Pacer.observe', () => {
  it('takes our requests since the count off it, and waits for the reset once it is spent', () => {
    const p = new Pacer();
    p.record(1000);
    p.observe('minute', { remaining: 2, resetInMs: 30_000 }, 1000);
    expect(p.remaining('minute', 1000)).toBe(2);
    p.record(1500); // answered without headers
    expect(p.remaining('minute', 1500)).toBe(1);
    expect(p.delay(1500).ms).toBe(0);
    p.record(2000);
    expect(p.remaining('minute', 2000)).toBe(0);
    expect(p.delay(2000)).toEqual({ ms: 1000 + 30_000 - 2000, window: 'minute' });
    // Once the window has freed a request the count no longer holds: our own tally does.
    expect(p.delay(31_000).ms).toBe(0);
    expect(p.remaining('minute', 31_000)).toBe(57);
  });

  it('trusts a server count above our own tally: its window may be shorter than we think', () => {
    const p = new Pacer();
    p.update({ limits: { per_minute: 3, per_hour: 1000, per_day: 10_000 }, remaining_credits: 100 });
    for (const at of [0, 10, 20]) p.record(at);
    expect(p.delay(20).ms).toBe(60_000 - 20);
    p.observe('minute', { remaining: 2, resetInMs: 5000 }, 20);
    expect(p.remaining('minute', 20)).toBe(2);
    expect(p.delay(20).ms).toBe(0);
  });

  it('a count set with --pace still caps the server count', () => {
    const p = new Pacer({ minute: { limit: 3, windowMs: 2000 } });
    for (const at of [0, 10, 20]) p.record(at);
    p.observe('minute', { remaining: 40 }, 20);
    expect(p.remaining('minute', 20)).toBe(0);
    expect(p.delay(20)).toEqual({ ms: 2000 - 20, window: 'minute' });
  });
});

describe('windowReports', () => {
  it('reads Remaining and Reset per window, the reset against the Date header', () => {
    expect(
      windowReports({
        date: SERVER_NOW,
        'x-ratelimit-remaining-minute': '4',
        'x-ratelimit-reset-minute': RESET_MINUTE,
        'x-ratelimit-remaining-day': ['7', '9'],
        'x-ratelimit-remaining-hour': 'lots',
      }),
    ).toEqual({ minute: { remaining: 4, resetInMs: 42_000 }, day: { remaining: 7 } });
    expect(windowReports({ 'content-type': 'application/json' })).toEqual({});
  });
});
