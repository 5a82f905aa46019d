// Sliding-window and monthly-quota limiter on an injected clock: counts, refusals, reset times, snapshots.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RATE_LIMITS,
  RateLimiter,
  ceilSecond,
  nextMonthStart,
  type RateLimitConfig,
} from '../../src/sandbox/limiter.js';

const T0 = Date.parse('2026-05-20T08:00:00.400Z');
const CFG: RateLimitConfig = {
  minute: { limit: 2, windowMs: 10_000 },
  hour: { limit: 4, windowMs: 100_000 },
  day: { limit: 6, windowMs: 1_000_000 },
  month: { limit: 8 },
};

describe('RateLimiter', () => {
  it('allows up to the limit inside a sliding window, refuses after, and frees exactly windowMs later', () => {
    const l = new RateLimiter({ config: CFG, startedAt: T0 });
    expect(l.consume('k', T0).allowed).toBe(true);
    expect(l.consume('k', T0 + 3000).allowed).toBe(true);
    const refused = l.consume('k', T0 + 5000);
    expect(refused).toMatchObject({ allowed: false, limitType: 'minute', limit: 2, resetAt: ceilSecond(T0 + 10_000) });
    expect(refused.allowed ? 0 : refused.resetAt).toBe(Date.parse('2026-05-20T08:00:11.000Z'));
    expect(l.consume('k', T0 + 9999).allowed).toBe(false);
    // A request counts while t > now - windowMs: the first one leaves at T0 + 10000 exactly.
    expect(l.consume('k', T0 + 10_000).allowed).toBe(true);
    const again = l.consume('k', T0 + 10_001);
    expect(again.allowed ? 0 : again.resetAt).toBe(ceilSecond(T0 + 3000 + 10_000));
  });

  it('does not count refused requests', () => {
    const l = new RateLimiter({ config: CFG, startedAt: T0 });
    l.consume('k', T0);
    l.consume('k', T0);
    for (let i = 0; i < 50; i++) l.consume('k', T0 + 1);
    expect(l.snapshot('k', T0 + 2).month.usage).toBe(2);
    expect(l.consume('k', T0 + 10_000).allowed).toBe(true);
  });

  it('names the hour and the day windows when they are the ones that are full', () => {
    const l = new RateLimiter({ config: CFG, startedAt: T0 });
    let t = T0;
    for (let i = 0; i < 4; i++, t += 11_000) expect(l.consume('k', t).allowed).toBe(true);
    expect(l.consume('k', t)).toMatchObject({
      allowed: false,
      limitType: 'hour',
      limit: 4,
      resetAt: ceilSecond(T0 + 100_000),
    });
    t = T0 + 100_000;
    for (let i = 0; i < 2; i++, t += 101_000) expect(l.consume('k', t).allowed).toBe(true);
    // 6 in the last 1 000 000 ms now; the day is full until the first one leaves.
    expect(l.consume('k', t)).toMatchObject({
      allowed: false,
      limitType: 'day',
      limit: 6,
      resetAt: ceilSecond(T0 + 1_000_000),
    });
  });

  it('when several windows are full, names the one that frees last', () => {
    const l = new RateLimiter({ config: { ...CFG, hour: { limit: 2, windowMs: 100_000 } }, startedAt: T0 });
    l.consume('k', T0);
    l.consume('k', T0 + 1000);
    expect(l.consume('k', T0 + 2000)).toMatchObject({ allowed: false, limitType: 'hour' });
  });

  it('monthly quota: refuses at the limit until 00:00 UTC on the 1st, then starts from zero', () => {
    const l = new RateLimiter({
      config: { ...DEFAULT_RATE_LIMITS, month: { limit: 3 } },
      startedAt: T0,
      initialMonthlyUsage: 2,
    });
    expect(l.consume('k', T0).allowed).toBe(true);
    const refused = l.consume('k', T0 + 1000);
    expect(refused).toMatchObject({
      allowed: false,
      limitType: 'month',
      limit: 3,
      resetAt: Date.parse('2026-06-01T00:00:00Z'),
    });
    const june = Date.parse('2026-06-01T00:00:00Z');
    expect(l.consume('k', june - 1).allowed).toBe(false);
    const ok = l.consume('k', june);
    expect(ok.allowed).toBe(true);
    expect(ok.snapshot.month).toEqual({
      limit: 3,
      usage: 1,
      remaining: 2,
      resetAt: Date.parse('2026-07-01T00:00:00Z'),
    });
  });

  it('nextMonthStart rolls over the year', () => {
    expect(nextMonthStart(Date.parse('2026-12-31T23:59:59.999Z'))).toBe(Date.parse('2027-01-01T00:00:00Z'));
  });

  it('keeps keys apart', () => {
    const l = new RateLimiter({ config: { ...CFG, minute: { limit: 1, windowMs: 10_000 } }, startedAt: T0 });
    expect(l.consume('a', T0).allowed).toBe(true);
    expect(l.consume('a', T0).allowed).toBe(false);
    expect(l.consume('b', T0).allowed).toBe(true);
  });

  it('enforce: false counts but never refuses; remaining stops at 0', () => {
    const l = new RateLimiter({ config: CFG, enforce: false, startedAt: T0 });
    let last: ReturnType<RateLimiter['consume']> | undefined;
    for (let i = 0; i < 20; i++) last = l.consume('k', T0 + i);
    expect(last?.allowed).toBe(true);
    expect(last?.snapshot.minute.remaining).toBe(0);
    expect(last?.snapshot.month).toMatchObject({ usage: 20, remaining: 0 });
  });

  it('snapshot: remaining per window and reset at the next second a request leaves', () => {
    const l = new RateLimiter({ config: CFG, startedAt: T0 });
    expect(l.snapshot('k', T0).minute).toEqual({ limit: 2, remaining: 2, resetAt: ceilSecond(T0) });
    l.consume('k', T0);
    expect(l.snapshot('k', T0 + 1).minute).toEqual({ limit: 2, remaining: 1, resetAt: ceilSecond(T0 + 10_000) });
    expect(l.snapshot('k', T0 + 1).hour.remaining).toBe(3);
  });

  it('copes with a clock that steps back', () => {
    const l = new RateLimiter({ config: CFG, startedAt: T0 });
    l.consume('k', T0 + 5000);
    l.consume('k', T0);
    expect(l.consume('k', T0 + 6000)).toMatchObject({ allowed: false, resetAt: ceilSecond(T0 + 10_000) });
  });

  it('handles a long run cheaply (day window of 10 000 entries)', () => {
    const l = new RateLimiter({ startedAt: T0 });
    let t = T0;
    let allowed = 0;
    for (let i = 0; i < 12_000; i++, t += 9_000) if (l.consume('k', t).allowed) allowed++;
    expect(allowed).toBeGreaterThan(9_000);
  });
});
