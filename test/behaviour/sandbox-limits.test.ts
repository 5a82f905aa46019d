// Rate limits over real HTTP on an injected clock: each window trips at its count with the right reset_at.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RateLimitConfig, type Sandbox } from '../../src/sandbox/index.js';
import { untilValue } from '../helpers/wait.js';
import { closeAgent, get } from './sandbox-helpers.js';
import { trackedSandbox } from '../helpers/sandbox.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Mid-month and a quarter second past the second, so rounding up shows. */
const T0 = Date.parse('2026-01-15T10:00:00.250Z');

let sb: Sandbox | undefined;
let now = T0;
async function sandbox(
  rateLimits: RateLimitConfig | false | undefined,
  extra: Parameters<typeof startSandbox>[0] = {},
) {
  now = T0;
  sb = await startSandbox({ recordCount: 20, clock: () => now, rateLimits, ...extra });
  return sb;
}
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});
afterAll(closeAgent);

const feed = (s: Sandbox) => get(s.url, '/v1/recalls/feed?limit=1');

const TINY: RateLimitConfig = {
  minute: { limit: 3, windowMs: MINUTE },
  hour: { limit: 5, windowMs: HOUR },
  day: { limit: 7, windowMs: 24 * HOUR },
  month: { limit: 1000 },
};

describe('rate limits', () => {
  it('minute window: trips at its count, reset_at is rounded up to the second it frees, then allows', async () => {
    const s = await sandbox(TINY);
    for (let i = 0; i < 3; i++) {
      expect((await feed(s)).status).toBe(200);
      now += SECOND;
    }
    const refused = await feed(s);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      detail: {
        error: 'rate_limit_exceeded',
        message: 'Rate limit exceeded: 3 requests per minute',
        details: { limit_type: 'minute', limit: 3, reset_at: '2026-01-15T10:01:01Z' },
        help: "You've exceeded your rate limit. Wait for the limit to reset at reset_at, then retry with exponential backoff.",
      },
    });
    // The first request (10:00:00.250) leaves the sliding window at 10:01:00.250: allowed from then on.
    now = T0 + MINUTE - 1;
    expect((await feed(s)).status).toBe(429);
    now = T0 + MINUTE;
    expect((await feed(s)).status).toBe(200);
    expect((await feed(s)).status).toBe(429);
  });

  it('hour window: trips at its count across minutes, naming the hour', async () => {
    const s = await sandbox(TINY);
    for (let i = 0; i < 5; i++) {
      expect((await feed(s)).status).toBe(200);
      now += 2 * MINUTE;
    }
    const refused = await feed(s);
    expect(refused.status).toBe(429);
    expect(refused.json.detail.details).toEqual({ limit_type: 'hour', limit: 5, reset_at: '2026-01-15T11:00:01Z' });
    expect(refused.json.detail.message).toBe('Rate limit exceeded: 5 requests per hour');
    now = T0 + HOUR;
    expect((await feed(s)).status).toBe(200);
  });

  it('day window: trips at its count across hours, naming the day', async () => {
    const s = await sandbox(TINY);
    for (let i = 0; i < 7; i++) {
      expect((await feed(s)).status).toBe(200);
      now += 2 * HOUR;
    }
    const refused = await feed(s);
    expect(refused.json.detail.details).toEqual({ limit_type: 'day', limit: 7, reset_at: '2026-01-16T10:00:01Z' });
    now = T0 + 24 * HOUR;
    expect((await feed(s)).status).toBe(200);
  });

  it('month quota: trips at the quota, resets at 00:00 UTC on the 1st, usage shown truthfully', async () => {
    const s = await sandbox(undefined, { monthlyUsage: 49_998 });
    const a = await feed(s);
    expect(a.json.rate_limit).toEqual({
      limits: { per_minute: 60, per_hour: 1000, per_day: 10000 },
      remaining_credits: 1,
      monthly_quota: 50000,
      monthly_usage: 49_999,
    });
    const b = await get(s.url, '/v1/recalls/sources');
    expect(b.status).toBe(200);
    const refused = await feed(s);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      detail: {
        error: 'rate_limit_exceeded',
        message: 'Rate limit exceeded: 50000 requests per month',
        details: { limit_type: 'month', limit: 50000, reset_at: '2026-02-01T00:00:00Z' },
        help: 'Your monthly quota is used up. It resets on the 1st of next month at 00:00 UTC; contact us for a higher quota.',
      },
    });
    now = Date.parse('2026-02-01T00:00:00Z');
    const next = await feed(s);
    expect(next.status).toBe(200);
    expect(next.json.rate_limit).toMatchObject({ monthly_usage: 1, remaining_credits: 49_999 });
  });

  it('counts validation errors, not 401s, not 429s, and never /health', async () => {
    const s = await sandbox({ ...TINY, minute: { limit: 2, windowMs: MINUTE } });
    expect((await get(s.url, '/v1/recalls/feed?limit=0')).status).toBe(400);
    expect((await get(s.url, '/v1/recalls/feed', 'dr_test_wrong')).status).toBe(401);
    expect((await get(s.url, '/v1/recalls/feed', null)).status).toBe(401);
    const ok = await feed(s);
    expect(ok.status).toBe(200);
    expect(ok.json.rate_limit.monthly_usage).toBe(2);
    for (let i = 0; i < 5; i++) expect((await feed(s)).status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await get(s.url, '/health', null)).status).toBe(200);
    now += MINUTE;
    const after = await feed(s);
    expect(after.status).toBe(200);
    expect(after.json.rate_limit.monthly_usage).toBe(3);
  });

  it('limits each key on its own', async () => {
    const s = await sandbox({ ...TINY, minute: { limit: 1, windowMs: MINUTE } });
    expect((await feed(s)).status).toBe(200);
    expect((await feed(s)).status).toBe(429);
    expect((await get(s.url, '/v1/recalls/feed', s.keys[1]?.key ?? null)).status).toBe(200);
  });

  it('sends X-RateLimit-* headers and Retry-After when switched on', async () => {
    const s = await sandbox({ ...TINY, minute: { limit: 2, windowMs: MINUTE } }, { rateLimitHeaders: true });
    const first = await feed(s);
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit-minute': '2',
      'x-ratelimit-remaining-minute': '1',
      'x-ratelimit-reset-minute': String(Math.ceil((T0 + MINUTE) / 1000)),
      'x-ratelimit-limit-hour': '5',
      'x-ratelimit-remaining-hour': '4',
      'x-ratelimit-limit-day': '7',
      'x-ratelimit-remaining-day': '6',
    });
    now += 10 * SECOND;
    await feed(s);
    const refused = await feed(s);
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-remaining-minute']).toBe('0');
    // reset 10:01:01, now 10:00:10.250: 50.75 s, rounded up.
    expect(refused.headers['retry-after']).toBe('51');
    expect((await get(s.url, '/health', null)).headers['x-ratelimit-limit-minute']).toBeUndefined();
  });

  it('rateLimits: false never refuses but still reports usage', async () => {
    const s = await sandbox(false);
    let last: Awaited<ReturnType<typeof feed>> | undefined;
    for (let i = 0; i < 70; i++) last = await feed(s);
    expect(last?.status).toBe(200);
    expect(last?.json.rate_limit.monthly_usage).toBe(70);
  });

  it('works on the real clock with tiny windows', async () => {
    sb = await trackedSandbox({ recordCount: 5, rateLimits: { ...TINY, minute: { limit: 2, windowMs: 300 } } });
    const s = sb;
    expect((await feed(s)).status).toBe(200);
    expect((await feed(s)).status).toBe(200);
    const refused = await feed(s);
    expect(refused.status).toBe(429);
    const resetAt = Date.parse(refused.json.detail.details.reset_at);
    expect(resetAt % 1000).toBe(0);
    expect(resetAt).toBeGreaterThan(Date.now());
    expect(resetAt - Date.now()).toBeLessThanOrEqual(1300);
    // Refused requests are not counted, so asking again until the window frees changes nothing.
    const freed = await untilValue(
      'the 300 ms window to free',
      () => feed(s),
      (a) => a.status !== 429,
      5_000,
    );
    expect(freed.status).toBe(200);
  });
});
