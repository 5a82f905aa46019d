// After a poll fails on a rate limit whose reset is known (a wait longer than --max-wait, a 429's reset_at or
// Retry-After), the next poll is not before that reset: the failure backoff never undercuts it; at most a day.
import { describe, expect, it } from 'vitest';
import { RateLimitError, WaitTooLongError } from '../../src/api/api-errors.js';
import { PollInterval, resetWaitMs } from '../../src/jobs/watch/poll-interval.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;

const dayLimit = (resetAt: string, headers: Record<string, string> = {}) =>
  new RateLimitError({
    status: 429,
    code: 'rate_limit_exceeded',
    message: 'Daily limit exceeded',
    details: { limit_type: 'day', limit: 1000, reset_at: resetAt },
    headers,
  });

describe('resetWaitMs', () => {
  it('a wait too long to sit out: until its reset', () => {
    const err = new WaitTooLongError('the day limit resets only in 18000 s', {
      waitMs: 5 * HOUR,
      resetAt: new Date(NOW + 5 * HOUR),
      limitType: 'day',
    });
    expect(resetWaitMs(err, NOW)).toBe(5 * HOUR);
  });

  it("a 429's reset_at, measured on the server's clock (its Date header), plus the 600 ms margin", () => {
    // Our clock is 3 minutes behind the server's: the reset is 5 h after the server's now, not 5 h 3 min after ours.
    const date = new Date(NOW + 3 * 60_000).toUTCString();
    expect(resetWaitMs(dayLimit('2026-06-01T17:03:00Z', { date }), NOW)).toBe(5 * HOUR + 600);
    expect(resetWaitMs(dayLimit('2026-06-01T17:00:00Z'), NOW)).toBe(5 * HOUR + 600);
  });

  it("a 429's Retry-After in seconds", () => {
    const err = new RateLimitError({
      status: 429,
      code: 'http_429',
      message: 'slow down',
      headers: { 'retry-after': '7200' },
    });
    expect(resetWaitMs(err, NOW)).toBe(2 * HOUR + 600);
  });

  it('at most a day; nothing for a failure that names no reset', () => {
    expect(resetWaitMs(dayLimit('2099-01-01T00:00:00Z'), NOW)).toBe(24 * HOUR);
    expect(resetWaitMs(new RateLimitError({ status: 429, code: 'http_429', message: 'x' }), NOW)).toBeUndefined();
    expect(resetWaitMs(new Error('ECONNRESET'), NOW)).toBeUndefined();
  });
});

describe('PollInterval.afterFailure with a reset', () => {
  it('waits for the reset when it is further than the backoff, else backs off as before', () => {
    const pace = new PollInterval(60_000, 'polling');
    expect(pace.afterFailure(5 * HOUR)).toBe(5 * HOUR);
    expect(pace.afterFailure(1000)).toBe(120_000);
    expect(pace.afterFailure()).toBe(240_000);
  });
});
