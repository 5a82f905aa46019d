// Per-key rate limiting: sliding minute/hour/day windows plus a calendar-month quota, on an injected clock.
import { SPEC_RATE_LIMITS } from '../api/schemas.js';

export interface WindowLimit {
  limit: number;
  windowMs: number;
}

export interface RateLimitConfig {
  minute: WindowLimit;
  hour: WindowLimit;
  day: WindowLimit;
  month: { limit: number };
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  minute: { limit: SPEC_RATE_LIMITS.perMinute, windowMs: 60_000 },
  hour: { limit: SPEC_RATE_LIMITS.perHour, windowMs: 3_600_000 },
  day: { limit: SPEC_RATE_LIMITS.perDay, windowMs: 86_400_000 },
  month: { limit: SPEC_RATE_LIMITS.perMonth },
};

export type LimitType = 'minute' | 'hour' | 'day' | 'month';
const WINDOWS = ['minute', 'hour', 'day'] as const;

export interface WindowState {
  limit: number;
  /** Requests still allowed in this window right now (never below 0). */
  remaining: number;
  /** Epoch ms, rounded up to a whole second: when the oldest counted request leaves the window (now if none). */
  resetAt: number;
}

export interface LimitSnapshot {
  minute: WindowState;
  hour: WindowState;
  day: WindowState;
  month: { limit: number; usage: number; remaining: number; resetAt: number };
}

export type LimitDecision =
  | { allowed: true; snapshot: LimitSnapshot }
  | { allowed: false; limitType: LimitType; limit: number; resetAt: number; snapshot: LimitSnapshot };

interface KeyState {
  /** Request times, ascending; entries before `head` have left every window. */
  times: number[];
  head: number;
  monthKey: string;
  monthCount: number;
}

export interface RateLimiterOptions {
  config?: RateLimitConfig;
  /** false: count and report, but never refuse (the sandbox's `rateLimits: false`). */
  enforce?: boolean;
  /** Usage already spent in the month of `startedAt`, per key. */
  initialMonthlyUsage?: number;
  startedAt: number;
}

export const ceilSecond = (ms: number): number => Math.ceil(ms / 1000) * 1000;

export function monthKeyOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${d.getUTCMonth()}`;
}

/** 00:00 UTC on the 1st of the month after `ms`. */
export function nextMonthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export class RateLimiter {
  readonly config: RateLimitConfig;
  private readonly enforce: boolean;
  private readonly initialUsage: number;
  private readonly initialMonth: string;
  private readonly keys = new Map<string, KeyState>();
  private readonly longestWindow: number;

  constructor(opts: RateLimiterOptions) {
    this.config = opts.config ?? DEFAULT_RATE_LIMITS;
    this.enforce = opts.enforce ?? true;
    this.initialUsage = opts.initialMonthlyUsage ?? 0;
    this.initialMonth = monthKeyOf(opts.startedAt);
    this.longestWindow = Math.max(...WINDOWS.map((w) => this.config[w].windowMs));
  }

  /** Counts the request when it is allowed; a refused request is not counted. */
  consume(key: string, now: number): LimitDecision {
    const st = this.state(key, now);
    const refusal = this.enforce ? this.refusal(st, now) : undefined;
    if (refusal) return { allowed: false, ...refusal, snapshot: this.snapshotOf(st, now) };
    this.insert(st, now);
    st.monthCount += 1;
    return { allowed: true, snapshot: this.snapshotOf(st, now) };
  }

  snapshot(key: string, now: number): LimitSnapshot {
    return this.snapshotOf(this.state(key, now), now);
  }

  private state(key: string, now: number): KeyState {
    let st = this.keys.get(key);
    if (!st) {
      st = { times: [], head: 0, monthKey: this.initialMonth, monthCount: this.initialUsage };
      this.keys.set(key, st);
    }
    const mk = monthKeyOf(now);
    if (mk !== st.monthKey) {
      st.monthKey = mk;
      st.monthCount = mk === this.initialMonth ? this.initialUsage : 0;
    }
    // Forget what has left the longest window, compacting now and then.
    while (st.head < st.times.length && (st.times[st.head] as number) <= now - this.longestWindow) st.head++;
    if (st.head > 1024 && st.head > st.times.length / 2) {
      st.times = st.times.slice(st.head);
      st.head = 0;
    }
    return st;
  }

  private insert(st: KeyState, now: number): void {
    const last = st.times[st.times.length - 1];
    st.times.push(now);
    // An injected clock may step back; keep the list sorted so the binary searches stay right.
    if (last !== undefined && last > now) {
      const live = st.times.slice(st.head).sort((a, b) => a - b);
      st.times = live;
      st.head = 0;
    }
  }

  /** Index of the first counted time inside the window ending at `now` (times > now - windowMs). */
  private firstInWindow(st: KeyState, now: number, windowMs: number): number {
    let lo = st.head;
    let hi = st.times.length;
    const edge = now - windowMs;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((st.times[mid] as number) > edge) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private refusal(st: KeyState, now: number): { limitType: LimitType; limit: number; resetAt: number } | undefined {
    const month = this.config.month.limit;
    if (st.monthCount >= month) return { limitType: 'month', limit: month, resetAt: nextMonthStart(now) };
    // When several windows are full, name the one that frees up last: waiting for any other would only
    // run into the next refusal.
    let worst: { limitType: LimitType; limit: number; resetAt: number } | undefined;
    for (const w of WINDOWS) {
      const { limit, windowMs } = this.config[w];
      const first = this.firstInWindow(st, now, windowMs);
      const count = st.times.length - first;
      if (count < limit) continue;
      // Allowed again once count - limit + 1 of the counted requests have left the window.
      const freeing = st.times[first + count - limit] as number;
      const resetAt = ceilSecond(freeing + windowMs);
      if (!worst || resetAt > worst.resetAt) worst = { limitType: w, limit, resetAt };
    }
    return worst;
  }

  private snapshotOf(st: KeyState, now: number): LimitSnapshot {
    const win = (w: (typeof WINDOWS)[number]): WindowState => {
      const { limit, windowMs } = this.config[w];
      const first = this.firstInWindow(st, now, windowMs);
      const count = st.times.length - first;
      // With the window full this is when a request is allowed again; otherwise when one more frees up.
      const freeing = st.times[count >= limit ? first + count - limit : first];
      return {
        limit,
        remaining: Math.max(0, limit - count),
        resetAt: ceilSecond(freeing === undefined ? now : freeing + windowMs),
      };
    };
    const limit = this.config.month.limit;
    return {
      minute: win('minute'),
      hour: win('hour'),
      day: win('day'),
      month: {
        limit,
        usage: st.monthCount,
        remaining: Math.max(0, limit - st.monthCount),
        resetAt: nextMonthStart(now),
      },
    };
  }
}
