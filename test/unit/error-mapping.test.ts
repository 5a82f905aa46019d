import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../src/api/error-mapping.js';
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
  RedirectError,
  WrongAddressError,
} from '../../src/api/api-errors.js';

const body = (error: string, details?: Record<string, unknown>) =>
  JSON.stringify({ detail: { error, message: `msg ${error}`, details, help: `help ${error}` } });

describe('errorFromResponse', () => {
  it('chooses by detail.error first, whatever the status', () => {
    const e = errorFromResponse(
      400,
      body('unauthorized_data_sources', { requested: ['us_fda'], authorized: ['us_cpsc'] }),
    );
    expect(e).toBeInstanceOf(UnauthorizedDataSourcesError);
    expect(e).toBeInstanceOf(PermissionDeniedError);
    expect((e as UnauthorizedDataSourcesError).requested).toEqual(['us_fda']);
    expect((e as UnauthorizedDataSourcesError).authorized).toEqual(['us_cpsc']);
    expect(e.status).toBe(400);
    expect(e.code).toBe('unauthorized_data_sources');
    expect(e.message).toBe('msg unauthorized_data_sources');
    expect(e.help).toBe('help unauthorized_data_sources');
    expect(errorFromResponse(403, body('invalid_api_key'))).toBeInstanceOf(InvalidApiKeyError);
    expect(errorFromResponse(400, body('validation_error', { provided: 'x' }))).toBeInstanceOf(ValidationError);
    expect(errorFromResponse(500, body('service_unavailable'))).toBeInstanceOf(ServiceUnavailableError);
    expect(errorFromResponse(503, body('internal_error'))).toBeInstanceOf(ServerError);
    expect(errorFromResponse(404, body('not_found'))).toBeInstanceOf(NotFoundError);
  });

  it('reads the rate-limit details, and a month limit is a spent quota', () => {
    const e = errorFromResponse(
      429,
      body('rate_limit_exceeded', { limit_type: 'minute', limit: 60, reset_at: '2025-12-19T17:45:30Z' }),
    );
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e).not.toBeInstanceOf(QuotaExhaustedError);
    expect((e as RateLimitError).limitType).toBe('minute');
    expect((e as RateLimitError).limit).toBe(60);
    expect((e as RateLimitError).resetAt?.toISOString()).toBe('2025-12-19T17:45:30.000Z');
    const m = errorFromResponse(
      429,
      body('rate_limit_exceeded', { limit_type: 'month', limit: 50000, reset_at: '2026-01-01T00:00:00Z' }),
    );
    expect(m).toBeInstanceOf(QuotaExhaustedError);
  });

  it('falls back to the HTTP status for unknown codes and for bodies that are not the envelope', () => {
    expect(errorFromResponse(401, body('something_new'))).toBeInstanceOf(InvalidApiKeyError);
    expect(errorFromResponse(403, '<html>forbidden</html>')).toBeInstanceOf(PermissionDeniedError);
    expect(errorFromResponse(429, '')).toBeInstanceOf(RateLimitError);
    expect(errorFromResponse(502, '<html><body>Bad Gateway</body></html>')).toBeInstanceOf(ServiceUnavailableError);
    expect(errorFromResponse(504, '{"detail":"x"}')).toBeInstanceOf(ServiceUnavailableError);
    expect(errorFromResponse(500, '{"detail":{"error":1}}')).toBeInstanceOf(ServerError);
    expect(errorFromResponse(400, 'nope')).toBeInstanceOf(ValidationError);
    const teapot = errorFromResponse(418, 'teapot');
    expect(teapot).toBeInstanceOf(ApiError);
    expect(teapot.code).toBe('http_418');
    expect(teapot.message).toBe('HTTP 418 from the API');
  });

  it('keeps the headers for Retry-After', () => {
    const e = errorFromResponse(429, '', { 'retry-after': '3' });
    expect(e.headers['retry-after']).toBe('3');
  });
});

describe('answers that are not from the API', () => {
  it('a 3xx is a RedirectError naming the resolved Location; a 404 without the envelope is a wrong address', () => {
    const url = new URL('https://gw.example/api/v1/recalls/feed');
    const moved = errorFromResponse(308, '', { location: '../v2/feed' }, url);
    expect(moved).toBeInstanceOf(RedirectError);
    expect((moved as RedirectError).location).toBe('https://gw.example/api/v1/v2/feed');
    expect((errorFromResponse(302, '') as RedirectError).location).toBeUndefined();
    const page = errorFromResponse(404, '<html>Not Found</html>', {}, url);
    expect(page).toBeInstanceOf(WrongAddressError);
    expect(page).not.toBeInstanceOf(NotFoundError);
    expect(page.message).toBe(
      'HTTP 404 for https://gw.example/api/v1/recalls/feed, and not from the API: no API answers at this address',
    );
    // JSON that is not the API's (nor FastAPI's `{"detail": "..."}`, which is: fastapi-errors.test.ts).
    expect(errorFromResponse(404, '{"error":"Not Found"}')).toBeInstanceOf(WrongAddressError);
    expect(errorFromResponse(404, '{"detail":{"reason":"gone"}}')).toBeInstanceOf(WrongAddressError);
  });
});
