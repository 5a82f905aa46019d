// Hand-written checks of the bodies the client reads: each accepts exactly what its zod schema in schemas.ts
// accepts, without zod's copy of every record (a unit test holds the two together). No dependencies.
import type { ErrorBody, FeedPage, HealthResponse, Recall, SourcesResponse, CustomRecord } from './schemas.js';

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const isString = (v: unknown): v is string => typeof v === 'string';
// zod's number() refuses Infinity (JSON.parse makes it of 1e999); int() also refuses unsafe integers.
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function optional(v: unknown, test: (v: unknown) => boolean): boolean {
  return v === undefined || test(v);
}

/** RecallSchema: an integer id, the source and the sort timestamps; any other field passes. */
function isRecall(r: unknown): r is Recall {
  return (
    isObject(r) &&
    isInt(r.id) &&
    isString(r.data_source) &&
    isString(r.published_at) &&
    optional(r.updated_at, isString) &&
    optional(r.created_in_db_at, isString)
  );
}

/** CustomRecordSchema: any object whose numeric id, if it has one, is a whole number up to 2^53 - 1. */
export const isCustomRecord = (r: unknown): r is CustomRecord =>
  isObject(r) && (typeof r.id !== 'number' || Number.isSafeInteger(r.id));

function isPagination(p: unknown): boolean {
  return (
    isObject(p) &&
    isInt(p.total_count) &&
    isInt(p.returned_count) &&
    isInt(p.limit) &&
    isBoolean(p.has_more) &&
    (p.next_cursor === undefined || p.next_cursor === null || isString(p.next_cursor))
  );
}

function isMeta(m: unknown): boolean {
  if (!isObject(m) || !isNumber(m.processing_time_ms) || !isString(m.timestamp)) return false;
  const f = m.filters_applied;
  return (
    isObject(f) &&
    optional(f.hours_ago, isInt) &&
    optional(f.data_sources, isStringArray) &&
    optional(f.sort_by, isString) &&
    optional(f.sort_order, isString)
  );
}

function isRateLimitInfo(r: unknown): boolean {
  if (!isObject(r) || !isInt(r.remaining_credits)) return false;
  if (!optional(r.monthly_quota, isInt) || !optional(r.monthly_usage, isInt)) return false;
  const l = r.limits;
  return isObject(l) && optional(l.per_minute, isInt) && optional(l.per_hour, isInt) && optional(l.per_day, isInt);
}

function isDataSourcesInfo(d: unknown): boolean {
  return isObject(d) && isStringArray(d.available) && isStringArray(d.requested) && isStringArray(d.filtered);
}

function isFeedEnvelope<R>(b: unknown, isRecord: (r: unknown) => r is R): b is FeedPage<R> & { success: boolean } {
  return (
    isObject(b) &&
    isBoolean(b.success) &&
    Array.isArray(b.data) &&
    b.data.every(isRecord) &&
    isPagination(b.pagination) &&
    optional(b.meta, isMeta) &&
    isRateLimitInfo(b.rate_limit) &&
    optional(b.data_sources, isDataSourcesInfo)
  );
}

/** FeedResponseSchema. */
export const isFeedBody = (b: unknown): b is FeedPage<Recall> => isFeedEnvelope(b, isRecall);

/** CustomFeedResponseSchema. */
export const isCustomFeedBody = (b: unknown): b is FeedPage<CustomRecord> => isFeedEnvelope(b, isCustomRecord);

/** SourcesResponseSchema. */
export function isSourcesBody(b: unknown): b is SourcesResponse {
  return (
    isObject(b) &&
    isBoolean(b.success) &&
    isInt(b.total_available) &&
    Array.isArray(b.data_sources) &&
    b.data_sources.every(
      (s) => isObject(s) && isString(s.id) && isString(s.name) && isString(s.description) && isString(s.official_url),
    )
  );
}

/** HealthResponseSchema. */
export function isHealthBody(b: unknown): b is HealthResponse {
  return isObject(b) && isString(b.status) && optional(b.timestamp, isString) && optional(b.version, isString);
}

/** ErrorBodySchema: `{detail: {error, message, details?, help?}}`. */
export function isErrorBody(b: unknown): b is ErrorBody {
  if (!isObject(b) || !isObject(b.detail)) return false;
  const d = b.detail;
  return isString(d.error) && isString(d.message) && optional(d.details, isObject) && optional(d.help, isString);
}
