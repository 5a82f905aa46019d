import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/api/pacing.js';

const info = (per_minute: number, per_hour = 1000, per_day = 10_000) => ({
  limits: { per_minute, per_hour, per_day },
  remaining_credits: 100,
});

describe('Pacer', () => {
  it('lets the spec limit through, then waits until the oldest request leaves the minute', () => {
    const p = new Pacer();
    let t = 1_000_000;
    for (let i = 0; i < 60; i++) {
      expect(p.delay(t).ms).toBe(0);
      p.record(t);
      t += 100;
    }
    // 60 requests in the last 6 s: the 61st waits until the first is 60 s old.
    expect(p.delay(t)).toEqual({ ms: 1_000_000 + 60_000 - t, window: 'minute' });
    expect(p.remaining('minute', t)).toBe(0);
    expect(p.delay(1_060_000).ms).toBe(0);
  });

  it('follows the limits a response reports', () => {
    const p = new Pacer();
    p.update(info(2));
    p.record(0);
    p.record(10);
    expect(p.delay(20)).toEqual({ ms: 60_000 - 20, window: 'minute' });
  });

  it('takes the shorter window and the lower count of an override', () => {
    const p = new Pacer({ minute: { limit: 10, windowMs: 2000 } });
    p.update(info(60));
    for (let i = 0; i < 10; i++) p.record(i * 10);
    expect(p.delay(100)).toEqual({ ms: 2000 - 100, window: 'minute' });
    expect(p.delay(1999).ms).toBe(1);
    expect(p.delay(2000).ms).toBe(0);
    const lower = new Pacer({ minute: { limit: 100 } });
    lower.update(info(5));
    expect(lower.limit('minute')).toBe(5);
  });

  it('waits for the longest of several full windows', () => {
    const p = new Pacer({ minute: { limit: 3, windowMs: 1000 }, hour: { limit: 5, windowMs: 10_000 } });
    for (const at of [0, 100, 200, 1100, 1200]) p.record(at);
    // minute: 2 in (300,1300] -> fine; hour: 5 in 10 s -> wait until 0 + 10 000.
    expect(p.delay(1300)).toEqual({ ms: 10_000 - 1300, window: 'hour' });
  });

  it('forgets requests older than the day window', () => {
    const p = new Pacer({ day: { limit: 2, windowMs: 5000 } });
    p.record(0);
    p.record(1);
    expect(p.delay(10).window).toBe('day');
    p.record(6000);
    expect(p.remaining('day', 6000)).toBe(1);
  });
});
