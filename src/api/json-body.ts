// Reads a 2xx answer as the API's JSON: complete, not absurdly nested, not `success: false`, of the expected
// shape. Shapes are checked by hand (body-shapes.ts); zod is loaded only to word the message for a body that fails.
import { isErrorBody, isFeedBody, isCustomFeedBody, isSourcesBody } from './body-shapes.js';
import { errorFromBody } from './error-mapping.js';
import { InvalidResponseError } from './api-errors.js';
import type { CustomRecord, FeedPage, Recall, SourcesResponse } from './schemas.js';
import type { RawResponse } from './transport.js';

/**
 * Far deeper than any record (the spec's are four levels), far shallower than what overflows the stack
 * of a renderer that walks a value (JSON.stringify gives up near 10,000).
 */
const MAX_JSON_DEPTH = 256;

/** A body the client reads, and the schema in schemas.ts that its hand check stands for. */
export interface BodyShape<T> {
  matches: (json: unknown) => json is T;
  schema: 'FeedResponseSchema' | 'CustomFeedResponseSchema' | 'SourcesResponseSchema';
}

export const FEED_BODY: BodyShape<FeedPage<Recall>> = { matches: isFeedBody, schema: 'FeedResponseSchema' };
export const CUSTOM_FEED_BODY: BodyShape<FeedPage<CustomRecord>> = {
  matches: isCustomFeedBody,
  schema: 'CustomFeedResponseSchema',
};
export const SOURCES_BODY: BodyShape<SourcesResponse> = { matches: isSourcesBody, schema: 'SourcesResponseSchema' };

/** Whether a parsed JSON value nests objects and arrays more than `limit` levels deep; no recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * The body as JSON. One that is not complete JSON (cut short, an HTML page) is worth a retry; one
 * nested beyond MAX_JSON_DEPTH is not (it would be the same again).
 */
export function parseJson(res: RawResponse): unknown {
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new InvalidResponseError('the API answered with a body that is not complete JSON', {
      status: res.status,
      retryable: true,
    });
  }
  if (typeof json === 'object' && json !== null && nestedDeeperThan(json, MAX_JSON_DEPTH)) {
    throw new InvalidResponseError(`the answer is nested more than ${MAX_JSON_DEPTH} levels deep`, {
      status: res.status,
    });
  }
  return json;
}

/** The body of a 2xx answer, checked against `shape`. `success: false` is an error, by its detail when it has one. */
export async function readApiBody<T>(res: RawResponse, url: URL, shape: BodyShape<T>): Promise<T> {
  const json = parseJson(res);
  if ((json as { success?: unknown } | null)?.success === false) {
    if (isErrorBody(json)) throw errorFromBody(res.status, json, res.headers, url);
    throw new InvalidResponseError('the API answered success: false without saying why', { status: res.status });
  }
  if (shape.matches(json)) return json;
  const schemas = await import('./schemas.js');
  const parsed = schemas[shape.schema].safeParse(json);
  // The schema has the last word; the hand check and it agree (a unit test holds them together).
  if (parsed.success) return json as T;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  throw new InvalidResponseError(`the API's answer does not match the spec at ${where}: ${issue?.message}`, {
    status: res.status,
  });
}
