// Which failures are retried, later or never, how long to back off, and how long a 429 asks us to wait: pure functions.
import {
  ConnectionError,
  InvalidApiKeyError,
  InvalidParamsError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExhaustedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  ProxyAuthError,
  TlsError,
  ValidationError,
  WaitTooLongError,
  WrongAddressError,
} from './api-errors.js';
import { header, serverNow } from './answer-headers.js';

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
/** Margin added after a reset time, so the retry lands after the window has really moved on. */
export const RESET_MARGIN_MIN_MS = 100;
export const RESET_MARGIN_MAX_MS = 600;

/** Transient failures: 5xx, broken or refused connections, timeouts, cut or non-JSON bodies. Never other 4xx. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof ServerError || err instanceof ServiceUnavailableError) return true;
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  if (err instanceof InvalidResponseError) return err.retryable;
  return false;
}

/**
 * Failures that the same request may get past later, though not within this request's retries: what
 * isRetryable accepts, any answer that was not the JSON expected, rate limits and waits too long to sit out.
 */
export function isTransient(err: unknown): boolean {
  return (
    isRetryable(err) ||
    err instanceof InvalidResponseError ||
    err instanceof RateLimitError ||
    err instanceof WaitTooLongError
  );
}

/**
 * The request itself was refused (the key, permissions, parameters, an unknown feed, the spent monthly
 * quota), or never reached the API (an address that is not the API's, a TLS handshake that cannot
 * succeed, a proxy that wants other credentials): sending it again unchanged cannot succeed until someone changes something.
 */
export function isRefusal(err: unknown): boolean {
  return (
    err instanceof WrongAddressError ||
    err instanceof TlsError ||
    err instanceof ProxyAuthError ||
    err instanceof InvalidApiKeyError ||
    err instanceof PermissionDeniedError ||
    err instanceof NotFoundError ||
    err instanceof ValidationError ||
    err instanceof InvalidParamsError ||
    err instanceof QuotaExhaustedError
  );
}

/** Capped exponential backoff with full jitter: uniform in [0, min(cap, base * 2^attempt)). */
export function backoffMs(
  attempt: number,
  random: () => number,
  baseMs = BACKOFF_BASE_MS,
  capMs = BACKOFF_CAP_MS,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/** A `Retry-After` value (seconds, or an HTTP date) as epoch ms; undefined when absent or unreadable. */
export function retryAfterAt(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return now + seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

/**
 * When a 429 says the limit resets, as epoch ms on the server's clock: `details.reset_at` first, then
 * `Retry-After` (seconds after `now`, or an HTTP date), then `X-RateLimit-Reset-<Type>` (epoch seconds).
 * Undefined when none is usable. `now` is the server's clock when it answered (serverNow).
 */
export function rateLimitResetAt(err: RateLimitError, now: number): number | undefined {
  if (err.resetAt && Number.isFinite(err.resetAt.getTime())) return err.resetAt.getTime();
  const retryAfter = retryAfterAt(header(err.headers, 'retry-after'), now);
  if (retryAfter !== undefined) return retryAfter;
  const type = err.limitType ?? 'minute';
  const reset = header(err.headers, `x-ratelimit-reset-${type}`);
  if (reset !== undefined && reset.trim() !== '' && Number.isFinite(Number(reset))) return Number(reset) * 1000;
  return undefined;
}

/**
 * The furthest reset a 429 is taken at its word: 100 years. A reset further off (`Retry-After: 99999999999999`, past
 * the range of a JavaScript Date) is read as this far, which is no wait anyone sits out (POINTLESS_WAIT_MS).
 */
export const RESET_HORIZON_MS = 100 * 365.25 * 86_400_000;

/**
 * The extra wait beyond the reset after the `streak`-th 429 in a row for one request: none after the first, then
 * 500 ms, doubling with each further 429, at most BACKOFF_CAP_MS. A server that keeps answering 429 with a reset
 * already here (`Retry-After: 0`) is asked ever less often, not twenty times in a few seconds.
 */
export function rateLimitBackoffMs(streak: number, baseMs = BACKOFF_BASE_MS, capMs = BACKOFF_CAP_MS): number {
  return streak <= 1 ? 0 : Math.min(capMs, baseMs * 2 ** (streak - 2));
}

/** The wait after a 429 that says nothing usable of its reset. */
export const UNKNOWN_RESET_WAIT_MS = 60_000;

/** The Date header counts whole seconds: a reset up to a second behind it may be this very second. */
const DATE_PRECISION_MS = 1000;

/**
 * How long to wait after a 429: from the server's clock when it answered (serverNow) until the reset, plus a
 * small random margin. A 429 that names no reset, or one clearly behind that clock (more than the Date header's
 * second), backs off a minute instead: retrying at once would only meet the same refusal. A reset beyond
 * RESET_HORIZON_MS is read as that far: the wait stays a number a Date can add to any clock.
 */
export function rateLimitWaitMs(err: RateLimitError, now: number, random: () => number): number {
  const margin = RESET_MARGIN_MIN_MS + Math.floor(random() * (RESET_MARGIN_MAX_MS - RESET_MARGIN_MIN_MS));
  const theirs = serverNow(err.headers, now);
  const resetAt = rateLimitResetAt(err, theirs);
  if (resetAt === undefined || resetAt - theirs <= -DATE_PRECISION_MS) return UNKNOWN_RESET_WAIT_MS + margin;
  return Math.min(RESET_HORIZON_MS, Math.max(0, resetAt - theirs) + margin);
}

/** The monthly quota resets on the 1st of the next month at 00:00 UTC. */
export function nextMonthlyReset(now: number): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}
