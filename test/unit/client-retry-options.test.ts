// The library's `retries` and `maxWaitMs` are checked when the client is built, as `timeoutMs` and `maxResponseBytes`
// are: `retries: NaN` (Number(undefined)) used to retry forever, and a NaN max-wait made a 429 a RateLimitError.
import { describe, expect, it } from 'vitest';
import { InvalidParamsError, ServerError } from '../../src/api/api-errors.js';
import { RecallFeedClient } from '../../src/api/client.js';
import { MAX_RETRIES } from '../../src/api/constants.js';
import { handlerServer } from '../helpers/handler-server.js';
import { feedIds, virtualClient } from '../helpers/virtual-client.js';

/** What building a client with `opts` throws, or undefined when it builds. */
function refusal(opts: ConstructorParameters<typeof RecallFeedClient>[0]): unknown {
  try {
    new RecallFeedClient(opts);
    return undefined;
  } catch (err) {
    return err;
  }
}

describe('retries', () => {
  it.each([Number.NaN, -1, 1.5, 21, Number.POSITIVE_INFINITY])('%s is refused with InvalidParamsError', (retries) => {
    const err = refusal({ retries });
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect((err as Error).message).toBe(`retries must be a whole number from 0 to 20, not ${retries}`);
  });

  it('0 to MAX_RETRIES are taken, and that many retries are made', async () => {
    expect(MAX_RETRIES).toBe(20);
    for (const retries of [0, 1, 20]) expect(refusal({ retries })).toBeUndefined();
    const srv = await handlerServer((_req, res) => res.writeHead(500).end('boom'));
    const { client, sleeps } = virtualClient(srv.url, Date.parse('2026-03-10T12:00:00Z'), { retries: 2 });
    await expect(feedIds(client)).rejects.toBeInstanceOf(ServerError);
    expect(srv.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    await client.close();
  });
});

describe('maxWaitMs', () => {
  it.each([Number.NaN, -1, Number.POSITIVE_INFINITY])('%s is refused with InvalidParamsError', (maxWaitMs) => {
    const err = refusal({ maxWaitMs });
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect((err as Error).message).toBe(`maxWaitMs must be a finite number of ms, 0 or more, not ${maxWaitMs}`);
  });

  it('0 and any finite positive number are taken', () => {
    for (const maxWaitMs of [0, 1.5, 60_000, 10 * 365 * 86_400_000]) expect(refusal({ maxWaitMs })).toBeUndefined();
  });
});
