// Client-side sliding windows: spaces requests so none would go over the minute, hour or day limit.
import { SPEC_RATE_LIMITS } from './constants.js';
import type { RateLimitInfo } from './schemas.js';

export type WindowName = 'minute' | 'hour' | 'day';
export const WINDOW_NAMES: readonly WindowName[] = ['minute', 'hour', 'day'];

/** A caller's own pacing for one window: a shorter window (a sandbox that shrinks them) or a lower count. */
export interface PacingOverride {
  limit?: number;
  windowMs?: number;
}
export type PacingOverrides = Partial<Record<WindowName, PacingOverride>>;

const DEFAULT_WINDOWS: Record<WindowName, { limit: number; windowMs: number }> = {
  minute: { limit: SPEC_RATE_LIMITS.perMinute, windowMs: 60_000 },
  hour: { limit: SPEC_RATE_LIMITS.perHour, windowMs: 3_600_000 },
  day: { limit: SPEC_RATE_LIMITS.perDay, windowMs: 86_400_000 },
};

const REPORTED_FIELD: Record<WindowName, 'per_minute' | 'per_hour' | 'per_day'> = {
  minute: 'per_minute',
  hour: 'per_hour',
  day: 'per_day',
};

export interface PacingDelay {
  ms: number;
  window: WindowName;
}

export class Pacer {
  /** Times (epoch ms) at which our requests were answered, oldest first. */
  private log: number[] = [];
  private readonly reported: Record<WindowName, number>;
  private readonly overrides: PacingOverrides;

  constructor(overrides: PacingOverrides = {}) {
    this.overrides = overrides;
    this.reported = {
      minute: DEFAULT_WINDOWS.minute.limit,
      hour: DEFAULT_WINDOWS.hour.limit,
      day: DEFAULT_WINDOWS.day.limit,
    };
  }

  /** Takes the limits a response reported; they replace the spec's figures. */
  update(info: RateLimitInfo): void {
    for (const name of WINDOW_NAMES) {
      const value = info.limits[REPORTED_FIELD[name]];
      if (typeof value === 'number' && value > 0) this.reported[name] = value;
    }
  }

  /** Logs a request. Use the time its answer arrived: the server counted it no later than that. */
  record(at: number): void {
    this.log.push(at);
    const horizon = at - this.windowMs('day');
    let drop = 0;
    while (drop < this.log.length && (this.log[drop] as number) <= horizon) drop++;
    if (drop > 0) this.log.splice(0, drop);
  }

  limit(name: WindowName): number {
    const own = this.overrides[name]?.limit;
    return own === undefined ? this.reported[name] : Math.min(own, this.reported[name]);
  }

  windowMs(name: WindowName): number {
    return this.overrides[name]?.windowMs ?? DEFAULT_WINDOWS[name].windowMs;
  }

  /** Requests still allowed in the window right now. */
  remaining(name: WindowName, now: number): number {
    return Math.max(0, this.limit(name) - this.countSince(now - this.windowMs(name)));
  }

  /** How long to wait before the next request fits every window; ms 0 when it fits now. */
  delay(now: number): PacingDelay {
    let longest: PacingDelay = { ms: 0, window: 'minute' };
    for (const name of WINDOW_NAMES) {
      const limit = this.limit(name);
      const inWindow = this.countSince(now - this.windowMs(name));
      if (inWindow < limit) continue;
      // The oldest request that must leave the window before one more fits.
      const mustLeave = this.log[this.log.length - limit] as number;
      const ms = mustLeave + this.windowMs(name) - now;
      if (ms > longest.ms) longest = { ms, window: name };
    }
    return longest;
  }

  private countSince(start: number): number {
    // The log is sorted: binary search for the first entry inside the window.
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.log[mid] as number) > start) hi = mid;
      else lo = mid + 1;
    }
    return this.log.length - lo;
  }
}
