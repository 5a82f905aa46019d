// An error code the server chose that names a member of Object.prototype (`constructor`, `toString`, `__proto__`)
// is a code like any unknown one: the class follows the HTTP status, a 5xx is retried, the CLI says the API's message.
import { describe, expect, it } from 'vitest';
import {
  type ApiError,
  InvalidApiKeyError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  ValidationError,
} from '../../src/api/api-errors.js';
import { RecallFeedClient } from '../../src/api/client.js';
import { errorFromResponse } from '../../src/api/error-mapping.js';
import { runMain } from '../helpers/in-process.js';
import { errorBody, feedBody, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'dr_test_0123456789abcdef0123456789abcdef01234567';

/** Every own member name of Object.prototype, as a code a body could carry. */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

const BY_STATUS: [number, abstract new (...args: never[]) => ApiError][] = [
  [400, ValidationError],
  [401, InvalidApiKeyError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [429, RateLimitError],
  [500, ServerError],
  [503, ServiceUnavailableError],
];

const body = (code: string) => JSON.stringify(errorBody(code, `message for ${code}`));

describe('a code named like an Object.prototype member', () => {
  it('maps by the HTTP status, keeping the code and the message', () => {
    expect(PROTOTYPE_NAMES).toEqual(expect.arrayContaining(['constructor', 'toString', '__proto__', 'valueOf']));
    for (const code of PROTOTYPE_NAMES) {
      for (const [status, Class] of BY_STATUS) {
        const err = errorFromResponse(status, body(code));
        expect(err, `${status} ${code}`).toBeInstanceOf(Class);
        expect(err.code).toBe(code);
        expect(err.message).toBe(`message for ${code}`);
      }
    }
  });

  it('a 500 with such a code is retried like any 500', async () => {
    const server = await scriptedServer([
      { status: 500, body: errorBody('toString', 'boom') },
      { status: 503, body: errorBody('__proto__', 'down') },
      {
        body: feedBody([
          {
            id: 1,
            data_source: 'us_cpsc',
            published_at: '2026-03-10T00:00:00',
            updated_at: '2026-03-10T00:00:00',
            created_in_db_at: '2026-03-10T00:00:01.000000+00:00',
          },
        ]),
      },
    ]);
    const sleeps: number[] = [];
    const client = new RecallFeedClient({
      apiKey: KEY,
      baseUrl: server.url,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
    });
    const ids: unknown[] = [];
    for await (const r of client.feed()) ids.push(r.id);
    expect(ids).toEqual([1]);
    expect(sleeps).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
    await client.close();
  });

  it('the CLI says the API refused the request (exit 2), with its message and help', async () => {
    const server = await scriptedServer([{ status: 400, body: errorBody('constructor', 'Bad thing') }]);
    const run = await runMain(['--base-url', server.url, 'feed', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: KEY },
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('error: the API rejected the request: Bad thing\nhint: help for constructor\n');
    expect(server.requests).toHaveLength(1);
  });

  it('toString on a 401 is the key refused (exit 3), not an unexpected error', async () => {
    const server = await scriptedServer([{ status: 401, body: errorBody('toString', 'Invalid API key') }]);
    const run = await runMain(['--base-url', server.url, 'feed', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: KEY },
    });
    expect(run.code).toBe(3);
    expect(run.stderr.split('\n')[0]).toBe('error: the API rejected the key: Invalid API key');
  });
});
