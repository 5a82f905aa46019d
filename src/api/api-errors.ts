// Typed errors of the client; error-mapping.ts picks the class for an answer. Imports only timestamps.ts.
import { timestampMicros } from './timestamps.js';

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Base of every error the library throws. */
export class RecallFeedError extends Error {
  override name = 'RecallFeedError';
}

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  help?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string | string[] | undefined>;
}

/** The server answered with an error status. */
export class ApiError extends RecallFeedError {
  override name = 'ApiError';
  readonly status: number;
  /** The API's machine-readable code (`detail.error`), or `http_<status>` when the body had none. */
  readonly code: string;
  readonly help: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.help = init.help;
    this.details = init.details;
    this.headers = init.headers ?? {};
  }
}

export class InvalidApiKeyError extends ApiError {
  override name = 'InvalidApiKeyError';
}

/** 403, or any answer coded `unauthorized_data_sources`. */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}

export class UnauthorizedDataSourcesError extends PermissionDeniedError {
  override name = 'UnauthorizedDataSourcesError';
  readonly requested: string[];
  readonly authorized: string[];
  constructor(init: ApiErrorInit) {
    super(init);
    this.requested = stringList(init.details?.requested);
    this.authorized = stringList(init.details?.authorized);
  }
}

export class ValidationError extends ApiError {
  override name = 'ValidationError';
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/**
 * The base URL does not lead to the API: a 404 without the API's error body (a web server's page), a 4xx status the
 * API does not answer with (405, 410, 418, 451...: a gateway, a filter or another service answered), or a redirect,
 * which the client never follows (it would carry the key to another address).
 */
export class WrongAddressError extends ApiError {
  override name = 'WrongAddressError';
}

/** A 3xx answer; `location` is the address it points to, resolved and without credentials, when usable. */
export class RedirectError extends WrongAddressError {
  override name = 'RedirectError';
  readonly location: string | undefined;
  constructor(init: ApiErrorInit & { location?: string }) {
    super(init);
    this.location = init.location;
  }
}

export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** minute, hour, day or month; undefined when the server did not say. */
  readonly limitType: string | undefined;
  readonly limit: number | undefined;
  /** When the limit resets, from `details.reset_at` (one without a zone is UTC); undefined when absent or unparsable. */
  readonly resetAt: Date | undefined;
  constructor(init: ApiErrorInit) {
    super(init);
    const d = init.details ?? {};
    this.limitType = typeof d.limit_type === 'string' ? d.limit_type : undefined;
    this.limit = typeof d.limit === 'number' ? d.limit : undefined;
    const reset = typeof d.reset_at === 'string' ? timestampMicros(d.reset_at.trim()) : NaN;
    this.resetAt = Number.isNaN(reset) ? undefined : new Date(Math.floor(reset / 1000));
  }
}

/** The monthly quota is spent: no retry can help before the reset. */
export class QuotaExhaustedError extends RateLimitError {
  override name = 'QuotaExhaustedError';
}

export class ServerError extends ApiError {
  override name = 'ServerError';
}

export class ServiceUnavailableError extends ApiError {
  override name = 'ServiceUnavailableError';
}

/** The server could not be reached, or the connection broke before a full answer arrived. */
export class ConnectionError extends RecallFeedError {
  override name = 'ConnectionError';
  readonly causeCode: string | undefined;
  constructor(message: string, causeCode?: string) {
    super(message);
    this.causeCode = causeCode;
  }
}

/**
 * A proxy between us and the API asks for credentials (HTTP 407) that its address does not carry, or
 * refuses those it carries. Never retried: the next attempt would carry the same ones.
 */
export class ProxyAuthError extends RecallFeedError {
  override name = 'ProxyAuthError';
}

/**
 * The TLS handshake failed: a certificate that cannot be trusted, or a server that does not speak TLS
 * (https to a plain-http port). Never retried: the next attempt would fail the same way.
 */
export class TlsError extends RecallFeedError {
  override name = 'TlsError';
  readonly causeCode: string | undefined;
  readonly kind: 'certificate' | 'protocol';
  constructor(message: string, kind: 'certificate' | 'protocol', causeCode?: string) {
    super(message);
    this.kind = kind;
    this.causeCode = causeCode;
  }
}

/** No full answer within the timeout (headers and body together). */
export class TimeoutError extends RecallFeedError {
  override name = 'TimeoutError';
}

/** The answer was not the JSON the spec describes. `retryable` is true for cut or truncated bodies. */
export class InvalidResponseError extends RecallFeedError {
  override name = 'InvalidResponseError';
  readonly status: number | undefined;
  readonly retryable: boolean;
  constructor(message: string, opts: { status?: number; retryable?: boolean } = {}) {
    super(message);
    this.status = opts.status;
    this.retryable = opts.retryable ?? false;
  }
}

/** The answer was larger than the client's bound (`maxResponseBytes`, decoded size); its body was abandoned. */
export class ResponseTooLargeError extends InvalidResponseError {
  override name = 'ResponseTooLargeError';
  readonly limitBytes: number;
  constructor(message: string, opts: { status?: number; limitBytes: number }) {
    super(message, { status: opts.status });
    this.limitBytes = opts.limitBytes;
  }
}

/**
 * The server's paging broke its own rules: has_more without a cursor, a cursor that repeats, or a next_cursor
 * it sent and then refused, also after the chain started over (`refusedCursor`).
 */
export class PaginationError extends InvalidResponseError {
  override name = 'PaginationError';
  /** The next_cursor the API sent and then refused, when that is what broke: no use to continue from. */
  readonly refusedCursor: string | undefined;
  constructor(message: string, opts: { status?: number; refusedCursor?: string } = {}) {
    super(message, { status: opts.status });
    this.refusedCursor = opts.refusedCursor;
  }
}

/** The caller's own input was wrong; raised before any request is sent. */
export class InvalidParamsError extends RecallFeedError {
  override name = 'InvalidParamsError';
}

/** The key holds characters an HTTP header cannot carry (control characters, non-ASCII); never sent. */
export class MalformedApiKeyError extends InvalidParamsError {
  override name = 'MalformedApiKeyError';
}

/** The key would travel over plain http to a host that is not this machine. */
export class InsecureTransportError extends InvalidParamsError {
  override name = 'InsecureTransportError';
}

/** A wait beyond this is no rate limit a caller could sit out: the server's reset time is absurd. */
export const POINTLESS_WAIT_MS = 31 * 86_400_000;

/** Waiting for a rate limit would take longer than the caller allows. */
export class WaitTooLongError extends RecallFeedError {
  override name = 'WaitTooLongError';
  override readonly cause: RateLimitError | undefined;
  readonly waitMs: number;
  readonly resetAt: Date;
  readonly limitType: string;
  constructor(message: string, opts: { waitMs: number; resetAt: Date; limitType: string; cause?: RateLimitError }) {
    super(message);
    this.waitMs = opts.waitMs;
    this.resetAt = opts.resetAt;
    this.limitType = opts.limitType;
    this.cause = opts.cause;
  }

  /** True when no --max-wait would be sensible: raising it is not the advice to give. */
  get pointless(): boolean {
    return this.waitMs > POINTLESS_WAIT_MS;
  }
}
