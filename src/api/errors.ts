// Typed errors of the client, chosen by the body's detail.error code first and the HTTP status second.
import { ErrorBodySchema, RateLimitDetailsSchema, UnauthorizedSourcesDetailsSchema } from './schemas.js';

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
    const parsed = UnauthorizedSourcesDetailsSchema.safeParse(init.details);
    this.requested = parsed.success ? parsed.data.requested : [];
    this.authorized = parsed.success ? parsed.data.authorized : [];
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
    const parsed = RateLimitDetailsSchema.safeParse(init.details);
    this.limitType = parsed.success ? parsed.data.limit_type : undefined;
    this.limit = parsed.success ? parsed.data.limit : undefined;
    const reset = parsed.success ? Date.parse(parsed.data.reset_at) : NaN;
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

type ErrorClass = new (init: ApiErrorInit) => ApiError;

const BY_CODE: Record<string, ErrorClass> = {
  invalid_api_key: InvalidApiKeyError,
  unauthorized_data_sources: UnauthorizedDataSourcesError,
  validation_error: ValidationError,
  rate_limit_exceeded: RateLimitError,
  not_found: NotFoundError,
  internal_error: ServerError,
  service_unavailable: ServiceUnavailableError,
};

function classForStatus(status: number): ErrorClass {
  if (status === 400 || status === 422) return ValidationError;
  if (status === 401) return InvalidApiKeyError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 429) return RateLimitError;
  if (status === 502 || status === 503 || status === 504) return ServiceUnavailableError;
  if (status >= 500) return ServerError;
  return ApiError;
}

/** Builds the typed error for a non-2xx answer. `body` is the raw text; it need not be JSON. */
export function errorFromResponse(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined> = {},
): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (!parsed.success) {
    const Class = classForStatus(status);
    return new Class({ status, code: `http_${status}`, message: `HTTP ${status} from the API`, headers });
  }
  const { error, message, help, details } = parsed.data.detail;
  let Class = BY_CODE[error] ?? classForStatus(status);
  const init = { status, code: error, message, help, details, headers };
  if (Class === RateLimitError) {
    const limitType = RateLimitDetailsSchema.safeParse(details);
    if (limitType.success && limitType.data.limit_type === 'month') Class = QuotaExhaustedError;
  }
  return new Class(init);
}
