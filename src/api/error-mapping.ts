// Turns an error answer into the typed error: by the body's detail.error code first, the HTTP status second.
import {
  ApiError,
  InvalidApiKeyError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExhaustedError,
  RateLimitError,
  RedirectError,
  ServerError,
  ServiceUnavailableError,
  UnauthorizedDataSourcesError,
  ValidationError,
  WrongAddressError,
  type ApiErrorInit,
} from './api-errors.js';
import { isErrorBody } from './body-shapes.js';
import { header } from './answer-headers.js';

type Headers = Record<string, string | string[] | undefined>;

type ErrorClass = new (init: ApiErrorInit) => ApiError;

/** A Map, not an object: a code the server chose (`constructor`, `__proto__`) must not find Object.prototype's members. */
const BY_CODE: ReadonlyMap<string, ErrorClass> = new Map<string, ErrorClass>([
  ['invalid_api_key', InvalidApiKeyError],
  ['unauthorized_data_sources', UnauthorizedDataSourcesError],
  ['validation_error', ValidationError],
  ['rate_limit_exceeded', RateLimitError],
  ['not_found', NotFoundError],
  ['internal_error', ServerError],
  ['service_unavailable', ServiceUnavailableError],
]);

/** The request was too large for the server (its body, its address, its headers): the caller's own input, as a 400. */
const TOO_LARGE: ReadonlySet<number> = new Set([413, 414, 431]);

/**
 * The class for a status, when the body names no code this client knows. A 408 (the server gave up waiting for the
 * request) is transient, as a 503. Any other 4xx is no status the API answers with (its own are 400 to 404 and 429):
 * whatever answered at the base URL is not acting as the API (a gateway, a filter, another service).
 */
function classForStatus(status: number): ErrorClass {
  if (status === 400 || status === 422 || TOO_LARGE.has(status)) return ValidationError;
  if (status === 401) return InvalidApiKeyError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 429) return RateLimitError;
  if (status === 408 || status === 502 || status === 503 || status === 504) return ServiceUnavailableError;
  if (status >= 500) return ServerError;
  if (status >= 400) return WrongAddressError;
  return ApiError;
}

/** A query parameter this long or longer is named as what made a request too large. */
const LONG_PARAMETER = 1000;

/**
 * A 413, 414 or 431 without the API's words: which parameter of `url` made the request too large, when one is long
 * (`details.parameter`, as a validation error names it, and its length), else the request as a whole.
 */
function tooLarge(status: number, url: URL | undefined): { message: string; details?: Record<string, unknown> } {
  const message = `HTTP ${status}: the request is too large for the server`;
  let longest: [string, string] | undefined;
  for (const entry of url?.searchParams ?? [])
    if (longest === undefined || entry[1].length > longest[1].length) longest = entry;
  if (longest === undefined || longest[1].length < LONG_PARAMETER) return { message };
  const [parameter, value] = longest;
  return {
    message: `${message} (its ${parameter} is ${value.length} characters long)`,
    details: { parameter, length: value.length },
  };
}

/** Where a redirect points, resolved, without credentials and bounded: safe to print (URL escapes controls). */
function redirectTarget(headers: Headers, url: URL | undefined): string | undefined {
  const location = header(headers, 'location');
  if (location === undefined || !URL.canParse(location, url?.href)) return undefined;
  const target = new URL(location, url);
  target.username = '';
  target.password = '';
  return target.href.length > 200 ? `${target.href.slice(0, 200)}...` : target.href;
}

/** One item of FastAPI's validation answer (`{"detail": [{"loc": [...], "msg": ..., "type": ...}]}`). */
interface FastApiItem {
  loc?: unknown;
  msg?: unknown;
}

/** Where a FastAPI item points: its `loc` without the part of the request it names first (`query`, `body`...). */
function itemPlace(loc: unknown): string | undefined {
  if (!Array.isArray(loc)) return undefined;
  const parts = loc.filter((p) => typeof p === 'string' || typeof p === 'number').map(String);
  if (parts.length > 1 && ['query', 'body', 'path', 'header', 'cookie'].includes(parts[0]!)) parts.shift();
  return parts.length > 0 ? parts.join('.') : undefined;
}

/**
 * FastAPI's own error forms, which the API (built on FastAPI, HTTPException(detail=...)) may send: `{"detail": "<text>"}`
 * (an unknown route's `Not Found`, an HTTPException raised with a string) and a 422's `{"detail": [{loc, msg}, ...]}`.
 * Their message; for the list form, each item's `place: msg`, and `details.parameter` the first item's place.
 */
function fastApiDetail(json: unknown): { message: string; details?: Record<string, unknown> } | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const detail = (json as { detail?: unknown }).detail;
  if (typeof detail === 'string') return { message: detail };
  if (!Array.isArray(detail) || detail.length === 0) return undefined;
  const items = detail.filter((i): i is FastApiItem => typeof i === 'object' && i !== null && 'msg' in i);
  if (items.length !== detail.length || !items.every((i) => typeof i.msg === 'string')) return undefined;
  const places = items.map((i) => itemPlace(i.loc));
  const message = items.map((i, n) => (places[n] ? `${places[n]}: ${i.msg}` : String(i.msg))).join('; ');
  return places[0] === undefined ? { message } : { message, details: { parameter: places[0] } };
}

/**
 * Builds the typed error for an error answer. `body` is the raw text; it need not be JSON. `url`, the
 * address asked, resolves a relative redirect and names the address in a 404 that is not the API's.
 */
export function errorFromResponse(status: number, body: string, headers: Headers = {}, url?: URL): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return errorFromBody(status, json, headers, url);
}

/**
 * A 404 at an address that is not the API's: no API answers there, or (`said`: the server's own words, the API's
 * envelope or FastAPI's text) the API has no endpoint there.
 */
function wrongAddress(
  status: number,
  code: string,
  headers: Headers,
  url: URL | undefined,
  said?: string,
): WrongAddressError {
  const address = url ? ` for ${url.origin}${url.pathname}` : '';
  const message =
    said === undefined
      ? `HTTP 404${address}, and not from the API: no API answers at this address`
      : `HTTP 404${address}: no API endpoint at this address (the server said: ${said})`;
  return new WrongAddressError({ status, code, message, headers });
}

/** A custom feed's path (`/v1/recalls/feed/<name>`), where the API's 404 may mean that feed's name. */
function isCustomFeedPath(url: URL): boolean {
  // At its end, once: a base URL that is itself a feed's address (`…/v1/recalls/feed/demo/v1/recalls/feed`) asks
  // another path, and so does a doubled `/v1` at the path's start (a gateway's own prefix may end in /v1).
  return (
    /\/v1\/recalls\/feed\/[a-z0-9][a-z0-9_-]*$/.test(url.pathname) &&
    !/^\/v1\/v1\//.test(url.pathname) &&
    !/\/recalls\/feed\/.*\/recalls\//.test(url.pathname)
  );
}

/** errorFromResponse for a body already parsed (undefined when it was not JSON). */
export function errorFromBody(status: number, json: unknown, headers: Headers = {}, url?: URL): ApiError {
  const code = `http_${status}`;
  if (status >= 300 && status < 400) {
    const location = redirectTarget(headers, url);
    const where = location ? `a redirect to ${location}` : 'a redirect without a usable Location';
    return new RedirectError({ status, code, message: `HTTP ${status}: ${where}, not followed`, headers, location });
  }
  const fastApi = fastApiDetail(json);
  if (status === 404) {
    // The API has four endpoints: a 404 on any path but a custom feed's, FastAPI's bare "Not Found" (no such route) on
    // any path, and a body in neither the API's words nor FastAPI's text all mean a wrong --base-url. Only the API's
    // own words under a custom feed's path say that feed is unknown (NotFoundError, below).
    const bare = fastApi?.message === 'Not Found';
    const own = isErrorBody(json) ? json.detail.message : bare ? undefined : fastApi?.message;
    if (own === undefined || (url !== undefined && !isCustomFeedPath(url)))
      return wrongAddress(status, code, headers, url, own || undefined);
  }
  if (fastApi !== undefined) {
    const Class = classForStatus(status);
    return new Class({
      status,
      code,
      message: fastApi.message || `HTTP ${status} from the API`,
      details: fastApi.details,
      headers,
    });
  }
  if (!isErrorBody(json)) {
    const Class = classForStatus(status);
    if (TOO_LARGE.has(status)) return new Class({ status, code, ...tooLarge(status, url), headers });
    return new Class({ status, code, message: `HTTP ${status} from the API`, headers });
  }
  const { error, message, help, details } = json.detail;
  let Class = BY_CODE.get(error) ?? classForStatus(status);
  const init = { status, code: error, message, help, details, headers };
  if (Class === RateLimitError) {
    if (details?.limit_type === 'month') Class = QuotaExhaustedError;
  }
  return new Class(init);
}
