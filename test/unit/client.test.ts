import { describe, expect, it } from 'vitest';
import { RecallFeedClient, type ClientOptions } from '../../src/api/client.js';
import {
  InvalidApiKeyError,
  InvalidParamsError,
  InvalidResponseError,
  QuotaExhaustedError,
  ServiceUnavailableError,
  WaitTooLongError,
} from '../../src/api/api-errors.js';
import { errorBody, feedBody, scriptedServer, type Scripted } from '../helpers/scripted-server.js';
import { virtualClient } from '../helpers/virtual-client.js';

const record = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  data_source: 'us_cpsc',
  published_at: '2025-12-11T00:00:00',
  updated_at: '2025-12-11T00:00:00',
  created_in_db_at: '2025-12-11T00:00:01.000000+00:00',
  ...extra,
});

/**
 * A client on a virtual clock: sleep advances time instead of waiting. The server is closed when the
 * test ends, and fails it unless every scripted answer was asked for.
 */
async function setup(script: Scripted[], opts: ClientOptions = {}) {
  const server = await scriptedServer(script);
  const { client, sleeps, events } = virtualClient(server.url, Date.parse('2026-03-10T12:00:00Z'), opts);
  return { client, sleeps, events, srv: server };
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('RecallFeedClient', () => {
  it('sends the key header and keeps every field of a record, unknown ones and their order included', async () => {
    const odd = { zeta: 1, ...record(7), brand_new_field: { nested: [1, 'x'] }, alpha: null };
    const { client, srv } = await setup([{ body: feedBody([odd]) }]);
    const got = await all(client.feed());
    expect(got).toEqual([odd]);
    expect(Object.keys(got[0]!)).toEqual(Object.keys(odd));
    expect(srv.requests[0]!.headers['x-api-key']).toBe('dr_test_0123456789abcdef0123456789abcdef01234567');
    await client.close();
  });

  it('sends the parameters and follows cursors with the same parameters', async () => {
    const { client, srv } = await setup([
      { body: feedBody([record(1)], { hasMore: true, next: 'c1' }) },
      { body: feedBody([record(2)]) },
    ]);
    const got = await all(
      client.feed({
        dataSources: ['us_cpsc', 'uk_opss'],
        hoursAgo: 6,
        limit: 1,
        sortBy: 'updated_at',
        sortOrder: 'asc',
      }),
    );
    expect(got.map((r) => r.id)).toEqual([1, 2]);
    expect(srv.requests.map((r) => r.url)).toEqual([
      '/v1/recalls/feed?data_sources=us_cpsc%2Cuk_opss&hours_ago=6&limit=1&sort_by=updated_at&sort_order=asc',
      '/v1/recalls/feed?data_sources=us_cpsc%2Cuk_opss&hours_ago=6&limit=1&sort_by=updated_at&sort_order=asc&cursor=c1',
    ]);
    await client.close();
  });

  it('retries 5xx, cut and HTML bodies with backoff, then succeeds', async () => {
    const { client, sleeps, srv } = await setup([
      { status: 503, body: errorBody('service_unavailable', 'down') },
      { status: 502, body: '<html>bad gateway</html>' },
      { status: 200, body: '{"success":true,"data":[{"id":1,' },
      { body: feedBody([record(1)]) },
    ]);
    expect((await all(client.feed())).map((r) => r.id)).toEqual([1]);
    expect(srv.requests).toHaveLength(4);
    // Full jitter at random()=0.5: half of 500, 1000, 2000 ms.
    expect(sleeps).toEqual([250, 500, 1000]);
  });

  it('gives up after the configured retries with the last error', async () => {
    const down = { status: 503, body: errorBody('service_unavailable', 'down') };
    const { client, srv } = await setup([down, down, down], { retries: 2 });
    await expect(all(client.feed())).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(srv.requests).toHaveLength(3);
  });

  it('never retries other 4xx', async () => {
    const { client, srv, sleeps } = await setup([
      { status: 401, body: errorBody('invalid_api_key', 'Invalid API key') },
    ]);
    await expect(all(client.feed())).rejects.toBeInstanceOf(InvalidApiKeyError);
    expect(srv.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry a JSON body of the wrong shape', async () => {
    const { client, srv } = await setup([{ body: { success: true, data: [{ id: 'not a number' }] } }]);
    await expect(all(client.feed())).rejects.toBeInstanceOf(InvalidResponseError);
    expect(srv.requests).toHaveLength(1);
  });

  it('waits until reset_at after a 429 and retries', async () => {
    const resetAt = '2026-03-10T12:00:20Z';
    const { client, sleeps, events } = await setup([
      {
        status: 429,
        // The server's clock agrees with the client's virtual one (the wait is measured against its Date header).
        headers: { date: 'Tue, 10 Mar 2026 12:00:00 GMT' },
        body: errorBody('rate_limit_exceeded', 'slow', { limit_type: 'minute', limit: 60, reset_at: resetAt }),
      },
      { body: feedBody([record(1)]) },
    ]);
    expect((await all(client.feed())).map((r) => r.id)).toEqual([1]);
    expect(sleeps).toEqual([20_000 + 350]);
    expect(events.some((e) => e.type === 'wait' && e.reason === 'rate_limit' && e.limitType === 'minute')).toBe(true);
  });

  it('gives up with WaitTooLongError when the reset is beyond maxWait', async () => {
    const { client, sleeps } = await setup(
      [
        {
          status: 429,
          headers: { date: 'Tue, 10 Mar 2026 12:00:00 GMT' },
          body: errorBody('rate_limit_exceeded', 'slow', {
            limit_type: 'hour',
            limit: 1000,
            reset_at: '2026-03-10T12:30:00Z',
          }),
        },
      ],
      { maxWaitMs: 60_000 },
    );
    const err = await all(client.feed()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTooLongError);
    expect((err as WaitTooLongError).limitType).toBe('hour');
    expect(sleeps).toEqual([]);
  });

  it('stops at once when the monthly quota is spent', async () => {
    const { client, srv } = await setup([{ body: feedBody([record(1)], { hasMore: true, next: 'c', remaining: 0 }) }]);
    const seen: number[] = [];
    const err = await (async () => {
      for await (const r of client.feed()) seen.push(r.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1]);
    expect(err).toBeInstanceOf(QuotaExhaustedError);
    expect((err as QuotaExhaustedError).resetAt?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(srv.requests).toHaveLength(1);
  });

  it('paces requests to the minute limit the API reports', async () => {
    const body = (n: number, more: boolean) => feedBody([record(n)], { hasMore: more, next: more ? `c${n}` : null });
    const page = (n: number, more: boolean) => {
      const b = body(n, more);
      b.rate_limit.limits.per_minute = 2;
      return { body: b };
    };
    const { client, sleeps } = await setup([page(1, true), page(2, true), page(3, false)]);
    expect((await all(client.feed())).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(sleeps).toEqual([60_000]);
  });

  it('checks parameters and custom names before any request', async () => {
    const { client, srv } = await setup([]);
    expect(() => client.feedPages({ hoursAgo: 25 })).toThrow(InvalidParamsError);
    expect(() => client.feedPages({ limit: 0 })).toThrow(/limit must be a whole number from 1 to 500/);
    expect(() => client.feedPages({ dataSources: [] })).toThrow(InvalidParamsError);
    expect(() => client.customFeedPages('../admin')).toThrow(InvalidParamsError);
    expect(() => client.customFeedPages('Demo')).toThrow(InvalidParamsError);
    expect(srv.requests).toHaveLength(0);
  });

  it('refuses to send a key over plain http to a non-loopback host', () => {
    expect(() => new RecallFeedClient({ apiKey: 'k', baseUrl: 'http://api.example.com' })).toThrow(/plain http/);
    expect(
      () => new RecallFeedClient({ apiKey: 'k', baseUrl: 'http://api.example.com', allowInsecureHttp: true }),
    ).not.toThrow();
    expect(() => new RecallFeedClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' })).not.toThrow();
    expect(() => new RecallFeedClient({ baseUrl: 'http://api.example.com' })).not.toThrow();
  });

  it('reports health without a key and without retrying', async () => {
    const { client, srv } = await setup([{ status: 503, body: { status: 'unhealthy' } }]);
    const h = await client.health();
    expect(h).toMatchObject({ healthy: false, httpStatus: 503, body: { status: 'unhealthy' } });
    expect(srv.requests).toHaveLength(1);
    expect(srv.requests[0]!.headers['x-api-key']).toBeUndefined();
  });
});
