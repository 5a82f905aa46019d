// Turns a non-2xx answer into the typed error: by the body's detail.error code first, the HTTP status second.
import {
  ApiError,
  InvalidApiKeyError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExhaustedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  UnauthorizedDataSourcesError,
  ValidationError,
  type ApiErrorInit,
} from './errors.js';
import { ErrorBodySchema } from './schemas.js';

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
    if (details?.limit_type === 'month') Class = QuotaExhaustedError;
  }
  return new Class(init);
}
