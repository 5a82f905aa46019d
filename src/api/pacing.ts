// Client-side sliding windows: spaces requests so none would go over the minute, hour or day limit, counting our
// own requests and, when answers report it (X-RateLimit-Remaining-*), the server's count for the whole key.
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

/** One window as an answer's headers reported it (rate-limit-headers.ts reads them). */
export interface WindowReport {
  /** Requests the server still allows in the window. */
  remaining: number;
  /**
   * How long after the answer the window frees a request, on the server's clock (X-RateLimit-Reset-<Window>
   * minus the answer's Date header); undefined when either header is missing or unreadable.
   */
  resetInMs?: number;
}

export interface PacingDelay {
  ms: number;
  window: WindowName;
}

/** A reset this far past the window's length is not believed (a Date header off the server's clock, say). */
const RESET_SLACK_MS = 1000;

/** What the server last said of a window. */
interface ServerCount {
  /** When it was said (epoch ms, our clock). */
  at: number;
  remaining: number;
  /** How many of our requests were logged by then: those logged since come off `remaining`. */
  sent: number;
  /** From when (epoch ms, our clock) the window holds a free request again once `remaining` is spent. */
  freeAt: number;
}

export class Pacer {
  /** Times (epoch ms) at which our requests were answered, oldest first. */
  private log: number[] = [];
  /** Requests logged so far, ever. */
  private sent = 0;
  /** Per window, the server's latest count: it also holds the requests of other runs and hosts on the key. */
  private readonly server: Partial<Record<WindowName, ServerCount>> = {};
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
    this.sent++;
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

  /**
   * Takes what an answer (arrived at `at`, after record) reported of a window. With no usable reset, the
   * window is taken to free a request when our oldest request in it leaves.
   */
  observe(name: WindowName, report: WindowReport, at: number): void {
    const windowMs = this.windowMs(name);
    const longest = Math.max(windowMs, DEFAULT_WINDOWS[name].windowMs) + RESET_SLACK_MS;
    const resetIn = report.resetInMs;
    let freeAt: number;
    if (resetIn !== undefined && resetIn > 0 && resetIn <= longest) freeAt = at + resetIn;
    else {
      const oldest = this.log[this.log.length - this.countSince(at - windowMs)];
      freeAt = (oldest === undefined || oldest > at ? at : oldest) + windowMs;
    }
    this.server[name] = { at, remaining: report.remaining, sent: this.sent, freeAt };
  }

  /**
   * Requests still allowed in the window right now. The server's count, while it holds, replaces our own tally
   * (which misses the key's other clients and may misjudge the window); a count the caller set still caps it.
   */
  remaining(name: WindowName, now: number): number {
    const own = Math.max(0, this.limit(name) - this.countSince(now - this.windowMs(name)));
    const server = this.serverLeft(name, now);
    if (server === undefined) return own;
    const left = Math.max(0, server);
    return this.overrides[name]?.limit === undefined ? left : Math.min(own, left);
  }

  /** How long to wait before the next request fits every window; ms 0 when it fits now. */
  delay(now: number): PacingDelay {
    let longest: PacingDelay = { ms: 0, window: 'minute' };
    for (const name of WINDOW_NAMES) {
      const ms = this.windowDelay(name, now);
      if (ms > longest.ms) longest = { ms, window: name };
    }
    return longest;
  }

  private windowDelay(name: WindowName, now: number): number {
    const server = this.serverLeft(name, now);
    let ms = 0;
    if (server === undefined || this.overrides[name]?.limit !== undefined) {
      const limit = this.limit(name);
      if (this.countSince(now - this.windowMs(name)) >= limit) {
        // The oldest request that must leave the window before one more fits.
        const mustLeave = this.log[this.log.length - limit] as number;
        ms = mustLeave + this.windowMs(name) - now;
      }
    }
    const count = this.server[name];
    if (server !== undefined && server <= 0 && count !== undefined) ms = Math.max(ms, count.freeAt - now);
    return ms;
  }

  /**
   * Requests the server's latest count leaves for the window, less ours sent since; undefined when it no longer
   * holds: the window has freed a request since it was spent, or the count is older than the window.
   */
  private serverLeft(name: WindowName, now: number): number | undefined {
    const count = this.server[name];
    if (count === undefined) return undefined;
    const left = count.remaining - (this.sent - count.sent);
    if (left <= 0) return now < count.freeAt ? left : undefined;
    return now - count.at < this.windowMs(name) ? left : undefined;
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
