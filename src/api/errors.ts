// Typed errors of the client; error-mapping.ts picks the class for an answer. No dependencies.

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

export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** minute, hour, day or month; undefined when the server did not say. */
  readonly limitType: string | undefined;
  readonly limit: number | undefined;
  /** When the limit resets, from `details.reset_at`; undefined when absent or unparsable. */
  readonly resetAt: Date | undefined;
  constructor(init: ApiErrorInit) {
    super(init);
    const d = init.details ?? {};
    this.limitType = typeof d.limit_type === 'string' ? d.limit_type : undefined;
    this.limit = typeof d.limit === 'number' ? d.limit : undefined;
    const reset = typeof d.reset_at === 'string' ? Date.parse(d.reset_at) : NaN;
    this.resetAt = Number.isNaN(reset) ? undefined : new Date(reset);
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

/** The server's paging broke its own rules (has_more without a cursor, or a cursor that repeats). */
export class PaginationError extends InvalidResponseError {
  override name = 'PaginationError';
}

/** The caller's own input was wrong; raised before any request is sent. */
export class InvalidParamsError extends RecallFeedError {
  override name = 'InvalidParamsError';
}

/** The key would travel over plain http to a host that is not this machine. */
export class InsecureTransportError extends InvalidParamsError {
  override name = 'InsecureTransportError';
}

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
}

