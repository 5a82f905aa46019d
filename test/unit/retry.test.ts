import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InvalidApiKeyError,
  InvalidResponseError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  ValidationError,
} from '../../src/api/api-errors.js';
import {
  BACKOFF_CAP_MS,
  backoffMs,
  isRetryable,
  nextMonthlyReset,
  rateLimitResetAt,
  rateLimitWaitMs,
} from '../../src/api/retry.js';

const init = { status: 500, code: 'x', message: 'm' };

describe('isRetryable', () => {
  it('retries transient failures', () => {
    expect(isRetryable(new ServerError(init))).toBe(true);
    expect(isRetryable(new ServiceUnavailableError({ ...init, status: 503 }))).toBe(true);
    expect(isRetryable(new ConnectionError('reset', 'ECONNRESET'))).toBe(true);
    expect(isRetryable(new TimeoutError('slow'))).toBe(true);
    expect(isRetryable(new InvalidResponseError('cut', { retryable: true }))).toBe(true);
  });
  it('never retries other 4xx, or a body that parsed but is the wrong shape', () => {
    expect(isRetryable(new InvalidApiKeyError({ ...init, status: 401 }))).toBe(false);
    expect(isRetryable(new PermissionDeniedError({ ...init, status: 403 }))).toBe(false);
    expect(isRetryable(new ValidationError({ ...init, status: 400 }))).toBe(false);
    expect(isRetryable(new RateLimitError({ ...init, status: 429 }))).toBe(false);
    expect(isRetryable(new InvalidResponseError('shape'))).toBe(false);
    expect(isRetryable(new Error('boom'))).toBe(false);
  });
});

describe('backoffMs', () => {
  it('is full jitter under a doubling, capped ceiling', () => {
    expect(backoffMs(0, () => 0)).toBe(0);
    expect(backoffMs(0, () => 0.999999)).toBe(499);
    expect(backoffMs(3, () => 0.999999)).toBe(3999);
    expect(backoffMs(30, () => 0.999999)).toBe(BACKOFF_CAP_MS - 1);
    for (let attempt = 0; attempt < 12; attempt++) {
      for (const r of [0, 0.25, 0.5, 0.75, 0.999]) {
        const ms = backoffMs(attempt, () => r);
        expect(ms).toBeLessThan(Math.min(BACKOFF_CAP_MS, 500 * 2 ** attempt));
      }
    }
  });
});

describe('rate limit waits', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const limited = (details: Record<string, unknown> | undefined, headers: Record<string, string> = {}) =>
    new RateLimitError({ status: 429, code: 'rate_limit_exceeded', message: 'slow down', details, headers });

  it('prefers details.reset_at', () => {
    const err = limited({ limit_type: 'minute', limit: 60, reset_at: '2026-03-10T12:00:30Z' }, { 'retry-after': '5' });
    expect(rateLimitResetAt(err, now)).toBe(now + 30_000);
    const wait = rateLimitWaitMs(err, now, () => 0);
    expect(wait).toBe(30_000 + 100);
    expect(rateLimitWaitMs(err, now, () => 0.999)).toBeLessThan(30_000 + 600);
  });
  it('falls back to Retry-After seconds, then an HTTP date, then X-RateLimit-Reset', () => {
    expect(rateLimitResetAt(limited(undefined, { 'retry-after': '7' }), now)).toBe(now + 7000);
    expect(rateLimitResetAt(limited(undefined, { 'retry-after': 'Tue, 10 Mar 2026 12:01:00 GMT' }), now)).toBe(
      now + 60_000,
    );
    const epoch = String((now + 12_000) / 1000);
    expect(rateLimitResetAt(limited(undefined, { 'x-ratelimit-reset-minute': epoch }), now)).toBe(now + 12_000);
    expect(rateLimitResetAt(limited(undefined), now)).toBeUndefined();
    expect(rateLimitWaitMs(limited(undefined), now, () => 0)).toBe(60_100);
  });
  it('backs off as for an unknown reset, never retrying at once, when the reset is already past', () => {
    const err = limited({ limit_type: 'minute', limit: 60, reset_at: '2026-03-10T11:59:00Z' });
    expect(rateLimitWaitMs(err, now, () => 0)).toBe(60_100);
  });
  it('puts the monthly reset on the 1st of next month, 00:00 UTC', () => {
    expect(nextMonthlyReset(now).toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(nextMonthlyReset(Date.parse('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
