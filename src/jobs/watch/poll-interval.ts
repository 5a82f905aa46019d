// The loop of feed --watch and sync --watch: rounds paced to fit the monthly quota, backed off after failures.
import { RateLimitError, WaitTooLongError } from '../../api/api-errors.js';
import { serverNow } from '../../api/answer-headers.js';
import { nextMonthlyReset, RESET_MARGIN_MAX_MS, rateLimitResetAt } from '../../api/retry.js';
import type { RateLimitInfo } from '../../api/schemas.js';
import { type Context, monotonicClock } from '../../runtime/context.js';
import { InterruptedError } from '../../runtime/cli-errors.js';
import { endsWatch } from '../../runtime/failure-policy.js';
import type { ApiSession } from '../../runtime/api-session.js';

/** `14:05:09`: when a poll ran, in the UTC time of the status lines. */
export function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** The longest pause between polls after repeated failures (unless the interval itself is longer). */
const MAX_BACKOFF_MS = 10 * 60_000;

/** The longest wait for a rate limit's reset: a day's limit resets within a day; a reset said to be later waits a day. */
const MAX_RESET_WAIT_MS = 86_400_000;

/**
 * How long until the limit that failed a poll resets, when the failure says (a wait longer than --max-wait, the
 * 429's reset_at or Retry-After), at most a day; undefined when it does not say.
 */
export function resetWaitMs(err: unknown, now: number): number | undefined {
  let ms: number | undefined;
  if (err instanceof WaitTooLongError) ms = err.resetAt.getTime() - now;
  else if (err instanceof RateLimitError) {
    // Its reset is on the server's clock: measured from the server's now, it holds however far ours is off.
    const theirs = serverNow(err.headers, now);
    const at = rateLimitResetAt(err, theirs);
    if (at !== undefined) ms = at - theirs + RESET_MARGIN_MAX_MS;
  }
  return ms === undefined ? undefined : Math.min(Math.max(0, ms), MAX_RESET_WAIT_MS);
}

/** The interval that makes polling until the monthly reset fit in the credits left (never shorter than asked). */
export function quotaInterval(
  rate: RateLimitInfo | undefined,
  now: number,
  intervalMs: number,
  requestsPerPoll: number,
): number {
  if (!rate || rate.remaining_credits <= 0) return intervalMs;
  const msLeft = nextMonthlyReset(now).getTime() - now;
  const needed = (msLeft / intervalMs) * requestsPerPoll;
  if (needed <= rate.remaining_credits) return intervalMs;
  return Math.ceil((msLeft * requestsPerPoll) / rate.remaining_credits);
}

export class PollInterval {
  private current: number;
  private failures = 0;

  /** `verb` names what the loop does, for the notice: "polling", "syncing". */
  constructor(
    private readonly intervalMs: number,
    private readonly verb: string,
  ) {
    this.current = intervalMs;
  }

  /**
   * After a successful poll of `requests` requests: the interval to keep, and a notice when stretching
   * starts or moves by more than a tenth (not on every poll).
   */
  afterSuccess(
    rate: RateLimitInfo | undefined,
    now: number,
    requests: number,
  ): { intervalMs: number; notice?: string } {
    this.failures = 0;
    const interval = quotaInterval(rate, now, this.intervalMs, Math.max(1, requests));
    let notice: string | undefined;
    if (interval > this.intervalMs && Math.abs(interval - this.current) > this.current / 10) {
      const left = rate?.remaining_credits ?? 0;
      notice = `recall-feed: ${this.verb} every ${Math.round(this.intervalMs / 1000)} s would use up the monthly quota (${left} left) before it resets; ${this.verb} every ${Math.ceil(interval / 1000)} s instead`;
    }
    this.current = interval;
    return { intervalMs: interval, notice };
  }

  /**
   * After a failed poll: the pause before the next, doubling up to ten minutes (or the interval, if longer); never
   * shorter than the wait until a rate limit that failed it resets (resetWaitMs), since a poll before would meet it again.
   */
  afterFailure(resetMs?: number): number {
    this.failures++;
    const backoff = Math.min(this.current * 2 ** (this.failures - 1), Math.max(this.current, MAX_BACKOFF_MS));
    return Math.max(backoff, resetMs ?? 0);
  }
}

/** What one round of a loop reports: requests it sent (for the quota), and what to say once the pause is known. */
export interface PollRound {
  requests: number;
  done?: (delayMs: number) => void;
}

export interface RepeatOptions {
  intervalMs: number;
  /** For messages: "poll" / "polling", "sync" / "syncing". */
  noun: string;
  verb: string;
  session: ApiSession;
  ctx: Context;
  round: () => Promise<PollRound>;
}

/**
 * Runs `round` again and again until interrupted: `intervalMs` apart (stretched to fit the monthly
 * quota), backing off after a failure, and ending only on a failure that no later round can fix.
 */
export async function repeatPolls(o: RepeatOptions): Promise<never> {
  const { session, ctx } = o;
  const pace = new PollInterval(o.intervalMs, o.verb);
  // The pause is what is left of the interval, measured on the monotonic clock: a wall clock stepped back during a
  // round (NTP, a VM resumed) would put the next one off by the step.
  const mono = monotonicClock(ctx);
  while (!ctx.signal.aborted) {
    const started = mono();
    let delay: number;
    try {
      const round = await o.round();
      const next = pace.afterSuccess(session.client.lastRateLimit, ctx.now(), round.requests);
      if (next.notice) session.status.note(next.notice);
      delay = Math.max(0, next.intervalMs - (mono() - started));
      round.done?.(delay);
      await ctx.ops?.pollEnded();
    } catch (err) {
      if (ctx.signal.aborted) break;
      if (endsWatch(err)) throw err;
      await ctx.ops?.pollEnded(err);
      const now = ctx.now();
      const resetMs = resetWaitMs(err, now);
      delay = pace.afterFailure(resetMs);
      // The error mapping imports every error class: loaded when a poll fails, not by every watch.
      const { describeError } = await import('../../runtime/error-reports.js');
      const { runSecrets } = await import('../../runtime/config/run-secrets.js');
      const when =
        resetMs !== undefined && delay === resetMs ? ` (at ${clock(now + delay)}, once the limit resets)` : '';
      session.status.note(
        `recall-feed: ${o.noun} failed: ${describeError(err, runSecrets(ctx)).message}; next ${o.noun} in ${Math.ceil(delay / 1000)} s${when}`,
      );
    }
    try {
      await ctx.sleep(delay, ctx.signal);
    } catch {
      break;
    }
  }
  throw ctx.signal.reason ?? new InterruptedError('SIGINT');
}
