// The pause between polls: stretched to fit the monthly quota (said once, not every poll), doubled after failures.
import { describe, expect, it } from 'vitest';
import { PollInterval, quotaInterval } from '../../src/jobs/watch/poll-interval.js';

const NOW = Date.parse('2026-11-30T00:00:00Z'); // one day before the monthly reset
const DAY = 86_400_000;
const rate = (left: number) => ({ limits: {}, remaining_credits: left }) as never;

describe('quotaInterval', () => {
  it('keeps the interval while the credits last until the reset', () => {
    // 1,440 polls of one request in a day at 60 s.
    expect(quotaInterval(rate(1440), NOW, 60_000, 1)).toBe(60_000);
    expect(quotaInterval(undefined, NOW, 60_000, 1)).toBe(60_000);
  });

  it('stretches it to spread what is left over the time left', () => {
    // 720 credits for a day of 2-request polls: one poll every 2 * 86,400 / 720 = 240 s.
    expect(quotaInterval(rate(720), NOW, 60_000, 2)).toBe(240_000);
  });
});

describe('PollInterval', () => {
  it('says so when stretching starts, and again only when it moves by more than a tenth', () => {
    const pace = new PollInterval(60_000, 'syncing');
    expect(pace.afterSuccess(rate(720), NOW, 1)).toEqual({
      intervalMs: 120_000,
      notice:
        'recall-feed: syncing every 60 s would use up the monthly quota (720 left) before it resets; syncing every 120 s instead',
    });
    expect(pace.afterSuccess(rate(700), NOW, 1).notice).toBeUndefined();
    // Half a day left, 350 credits: 43,200 s / 350 = 123.4 s, within a tenth of 120 s.
    expect(pace.afterSuccess(rate(350), NOW + DAY / 2, 1)).toEqual({ intervalMs: 123_429, notice: undefined });
    expect(pace.afterSuccess(rate(100), NOW, 1).notice).toContain('syncing every 864 s instead');
  });

  it('backs off after failures from the current interval, up to ten minutes, and starts over after a success', () => {
    const pace = new PollInterval(60_000, 'polling');
    expect([
      pace.afterFailure(),
      pace.afterFailure(),
      pace.afterFailure(),
      pace.afterFailure(),
      pace.afterFailure(),
    ]).toEqual([60_000, 120_000, 240_000, 480_000, 600_000]);
    pace.afterSuccess(undefined, NOW, 1);
    expect(pace.afterFailure()).toBe(60_000);
  });
});
