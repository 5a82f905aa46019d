// Reads a 2xx answer as the API's JSON: complete, not absurdly nested, not `success: false`, of the expected
// shape. Shapes are checked by hand (body-shapes.ts); zod is loaded only to word the message for a body that fails.
import { isErrorBody, isFeedBody, isCustomFeedBody, isSourcesBody } from './body-shapes.js';
import { errorFromBody } from './error-mapping.js';
import { InvalidResponseError } from './api-errors.js';
import { type InexactNumber, inexactNumbers } from './inexact-numbers.js';
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

/**
 * One walk of a parsed JSON value, no recursion: whether it nests objects and arrays more than `limit` levels deep,
 * and whether it holds a number past 2^53 - 1 or an infinite one, which JSON.parse may have changed from what was
 * sent (inexact-numbers.ts then reads the text; almost no body needs it).
 */
function survey(value: unknown, limit: number): { tooDeep: boolean; beyondDouble: boolean } {
  let beyondDouble = false;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return { tooDeep: true, beyondDouble };
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      } else if (typeof child === 'number' && !(Math.abs(child) <= Number.MAX_SAFE_INTEGER)) beyondDouble = true;
    }
  }
  return { tooDeep: false, beyondDouble };
}

/**
 * The body as JSON. One that is not complete JSON (cut short, an HTML page) is worth a retry; one
 * nested beyond MAX_JSON_DEPTH is not (it would be the same again).
 */
function readJson(res: RawResponse): { json: unknown; beyondDouble: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new InvalidResponseError('the API answered with a body that is not complete JSON', {
      status: res.status,
      retryable: true,
    });
  }
  if (typeof json !== 'object' || json === null) return { json, beyondDouble: false };
  const { tooDeep, beyondDouble } = survey(json, MAX_JSON_DEPTH);
  if (tooDeep) {
    throw new InvalidResponseError(`the answer is nested more than ${MAX_JSON_DEPTH} levels deep`, {
      status: res.status,
    });
  }
  return { json, beyondDouble };
}

/** The body as JSON (readJson); for answers whose numbers nothing keeps (health). */
export function parseJson(res: RawResponse): unknown {
  return readJson(res).json;
}

/**
 * The body of a 2xx answer, checked against `shape`. `success: false` is an error, by its detail when it has one.
 * `onInexact` hears of the numbers JSON.parse changed, when there are any.
 */
export async function readApiBody<T>(
  res: RawResponse,
  url: URL,
  shape: BodyShape<T>,
  onInexact: (numbers: InexactNumber[]) => void = () => {},
): Promise<T> {
  const { json, beyondDouble } = readJson(res);
  if ((json as { success?: unknown } | null)?.success === false) {
    if (isErrorBody(json)) throw errorFromBody(res.status, json, res.headers, url);
    throw new InvalidResponseError('the API answered success: false without saying why', { status: res.status });
  }
  const said = (body: T): T => {
    const numbers = beyondDouble ? inexactNumbers(res.body) : [];
    if (numbers.length > 0) onInexact(numbers);
    return body;
  };
  if (shape.matches(json)) return said(json);
  const schemas = await import('./schemas.js');
  const parsed = schemas[shape.schema].safeParse(json);
  // The schema has the last word; the hand check and it agree (a unit test holds them together).
  if (parsed.success) return said(json as T);
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  throw new InvalidResponseError(`the API's answer does not match the spec at ${where}: ${issue?.message}`, {
    status: res.status,
  });
}
