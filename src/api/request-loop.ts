// One logical request: pacing to the client's windows (and the counts answers report in X-RateLimit-* headers),
// the monthly quota, retries of transient failures with backoff, and waits for 429s, each wait bounded by
// maxWaitMs. Knows nothing of paths or bodies.
import { QuotaExhaustedError, RateLimitError, WaitTooLongError } from './api-errors.js';
import { Pacer, WINDOW_NAMES, type PacingOverrides, type WindowName } from './pacing.js';
import type { AnswerHeaders } from './answer-headers.js';
import { windowReports } from './rate-limit-headers.js';
import {
  backoffMs,
  isRetryable,
  nextMonthlyReset,
  RESET_HORIZON_MS,
  rateLimitBackoffMs,
  rateLimitWaitMs,
} from './retry.js';
import type { RateLimitInfo } from './schemas.js';

/** The waits the loop reports; the CLI turns them into countdowns. */
export type WaitEvent =
  | { type: 'wait'; reason: 'pacing'; ms: number; window: WindowName }
  | { type: 'wait'; reason: 'rate_limit'; ms: number; limitType: string; resetAt: Date }
  | { type: 'wait'; reason: 'retry'; ms: number; attempt: number; error: Error };

export interface RequestLoopOptions {
  retries: number;
  maxWaitMs: number;
  pacing?: PacingOverrides;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  onWait: (event: WaitEvent) => void;
  signal?: AbortSignal;
}

/** At most this many 429s in a row for one request; each wait must also fit maxWaitMs. */
const MAX_RATE_LIMIT_RETRIES = 20;

export class RequestLoop {
  private readonly pacer: Pacer;
  /** The rate_limit block of the latest feed page. */
  lastRateLimit: RateLimitInfo | undefined;
  /** Time spent waiting for rate limits (pacing and 429s) so far. */
  rateLimitWaitMs = 0;

  constructor(private readonly opts: RequestLoopOptions) {
    this.pacer = new Pacer(opts.pacing);
  }

  /**
   * Paces, then sends and reads the answer; retried on transient failures and 429s. `send` is counted
   * against the windows when it settles, answered or not: the server may have counted a request that
   * timed out or was cut; the remaining counts its answer's headers report, a 429's too, replace our own.
   * `read` turns the answer into the result, or throws the error it stands for.
   */
  async run<R extends { headers: AnswerHeaders }, T>(
    send: () => Promise<R>,
    read: (answer: R) => Promise<T>,
  ): Promise<T> {
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      await this.pace();
      try {
        let answer: R;
        try {
          answer = await send();
        } finally {
          this.pacer.record(this.opts.now());
        }
        this.noteHeaders(answer.headers);
        return await read(answer);
      } catch (err) {
        if (this.opts.signal?.aborted) throw err;
        if (err instanceof RateLimitError && !(err instanceof QuotaExhaustedError)) {
          rateLimited++;
          if (rateLimited > MAX_RATE_LIMIT_RETRIES) throw err;
          await this.waitForReset(err, rateLimited);
          continue;
        }
        if (!isRetryable(err) || failures >= this.opts.retries) throw err;
        const ms = backoffMs(failures, this.opts.random);
        failures++;
        this.opts.onWait({ type: 'wait', reason: 'retry', ms, attempt: failures, error: err as Error });
        await this.opts.sleep(ms, this.opts.signal);
      }
    }
  }

  /** Takes a page's rate_limit block: its limits for pacing, its credits for the quota check. */
  noteRateLimit(info: RateLimitInfo): void {
    this.pacer.update(info);
    this.lastRateLimit = info;
  }

  /** Requests still allowed in one of the windows: the server's count when an answer reported one, else our own. */
  remaining(window: WindowName): number {
    return this.pacer.remaining(window, this.opts.now());
  }

  /** Feeds the windows an answer's X-RateLimit-Remaining-* / -Reset-* headers report into the pacer. */
  private noteHeaders(headers: AnswerHeaders): void {
    const reports = windowReports(headers);
    const at = this.opts.now();
    for (const name of WINDOW_NAMES) {
      const report = reports[name];
      if (report !== undefined) this.pacer.observe(name, report, at);
    }
  }

  private async pace(): Promise<void> {
    const now = this.opts.now();
    if (this.lastRateLimit && this.lastRateLimit.remaining_credits <= 0) {
      const resetAt = nextMonthlyReset(now);
      throw new QuotaExhaustedError({
        status: 429,
        code: 'monthly_quota_used',
        message: `the monthly quota of ${this.lastRateLimit.monthly_quota ?? 'this key'} requests is used up`,
        details: { limit_type: 'month', limit: this.lastRateLimit.monthly_quota ?? 0, reset_at: resetAt.toISOString() },
      });
    }
    const { ms, window } = this.pacer.delay(now);
    if (ms <= 0) return;
    const event: WaitEvent = { type: 'wait', reason: 'pacing', ms, window };
    await this.waitWithinLimit(ms, now, window, `the ${window} limit allows the next request only in`, event);
  }

  /**
   * Waits out the `streak`-th 429 in a row: until its reset, and from the second on a growing backoff beyond it
   * (rateLimitBackoffMs). The backoff is our own caution: it takes no more than --max-wait leaves, so only the
   * reset the server names decides whether the wait is too long.
   */
  private async waitForReset(err: RateLimitError, streak: number): Promise<void> {
    const now = this.opts.now();
    const untilReset = rateLimitWaitMs(err, now, this.opts.random);
    const room = Math.max(0, this.opts.maxWaitMs - untilReset);
    const ms = untilReset + Math.min(rateLimitBackoffMs(streak), room);
    const limitType = err.limitType ?? 'rate';
    const event: WaitEvent = { type: 'wait', reason: 'rate_limit', ms, limitType, resetAt: new Date(now + ms) };
    await this.waitWithinLimit(ms, now, limitType, `the ${limitType} limit resets only in`, event, err);
  }

  /** Sleeps for a rate limit, or gives up with WaitTooLongError when the wait exceeds maxWaitMs. */
  private async waitWithinLimit(
    ms: number,
    now: number,
    limitType: string,
    what: string,
    event: WaitEvent,
    cause?: RateLimitError,
  ): Promise<void> {
    if (ms > this.opts.maxWaitMs) {
      throw new WaitTooLongError(`${what} ${waitText(ms)}`, {
        waitMs: ms,
        resetAt: new Date(now + ms),
        limitType,
        cause,
      });
    }
    this.opts.onWait(event);
    this.rateLimitWaitMs += ms;
    await this.opts.sleep(ms, this.opts.signal);
  }
}

/** Seconds for a wait one could sit out; days for one that is absurd (a reset_at decades away). */
function waitText(ms: number): string {
  if (ms >= RESET_HORIZON_MS) return `more than ${Math.round(RESET_HORIZON_MS / 31_557_600_000)} years`;
  const days = ms / 86_400_000;
  return days > 2 ? `${Math.floor(days)} days` : `${Math.ceil(ms / 1000)} s`;
}
