// Fault injection over real HTTP: 500, 503, HTML 502, cut, truncated, slow, stall, 429 bursts and failAfterPages.
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/api/schemas.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { until } from '../helpers/wait.js';
import { ALL, agent, closeAgent, call, get } from './sandbox-helpers.js';
import { trackedSandbox } from '../helpers/sandbox.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ recordCount: 200, rateLimits: false, rateLimitHeaders: true });
});
beforeEach(() => {
  sb.setFaults({});
  sb.clearRequests();
});
afterAll(async () => {
  await sb.close();
  await closeAgent();
});

const FEED = '/v1/recalls/feed?limit=20';

/** A request that may fail below HTTP: resolves to the headers' arrival time and the body's fate. */
async function rawFeed(base: string) {
  const t0 = performance.now();
  const res = await request(base + FEED, { headers: { 'x-api-key': ALL }, dispatcher: agent() });
  const headersAt = performance.now() - t0;
  try {
    const text = await res.body.text();
    return {
      status: res.statusCode,
      headers: res.headers,
      headersAt,
      bodyAt: performance.now() - t0,
      text,
      error: undefined,
    };
  } catch (error) {
    return {
      status: res.statusCode,
      headers: res.headers,
      headersAt,
      bodyAt: performance.now() - t0,
      text: undefined,
      error: error as Error,
    };
  }
}

describe('faults', () => {
  it('error500 and error503 answer in the API envelope', async () => {
    sb.setFaults({ error500: 1 });
    const a = await get(sb.url, FEED);
    expect(a.status).toBe(500);
    expect(a.json).toEqual({
      detail: {
        error: 'internal_error',
        message: 'Internal server error',
        help: 'This is a temporary problem on our side. Retry with exponential backoff; contact support if it persists.',
      },
    });
    sb.setFaults({ error503: 1 });
    const b = await get(sb.url, '/v1/recalls/sources');
    expect(b.status).toBe(503);
    expect(b.json).toEqual({
      detail: {
        error: 'service_unavailable',
        message: 'The API is temporarily unavailable',
        help: 'Retry later with exponential backoff.',
      },
    });
    ErrorBodySchema.parse(b.json);
    expect(sb.requests().map((e) => [e.status, e.fault])).toEqual([
      [500, 'error500'],
      [503, 'error503'],
    ]);
  });

  it('html502 sends an HTML body', async () => {
    sb.setFaults({ html502: 1 });
    const res = await get(sb.url, FEED);
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.text).toContain('<h1>502 Bad Gateway</h1>');
    expect(res.json).toBeUndefined();
  });

  it('faults hit /v1 only: /health and the hooks stay clean', async () => {
    sb.setFaults({ error500: 1 });
    expect((await get(sb.url, '/health', null)).status).toBe(200);
    expect((await call(sb.url, '/_sandbox/records')).status).toBe(200);
  });

  it('cut: headers and part of the body, then the socket is destroyed', async () => {
    sb.setFaults({ cut: 1 });
    const res = await rawFeed(sb.url);
    expect(res.status).toBe(200);
    expect(res.error).toBeDefined();
    expect(sb.requests()[0]).toMatchObject({ status: 200, fault: 'cut' });
  });

  it('truncate: a 200 whose JSON stops short, with a matching Content-Length', async () => {
    sb.setFaults({ truncate: 1 });
    const res = await rawFeed(sb.url);
    expect(res.status).toBe(200);
    expect(res.error).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text as string));
    expect(() => JSON.parse(res.text as string)).toThrow();
    expect((res.text as string).startsWith('{"success":true')).toBe(true);
  });

  it('slow: the whole answer waits slowMs', async () => {
    sb.setFaults({ slow: 1, slowMs: 250 });
    const res = await rawFeed(sb.url);
    expect(res.status).toBe(200);
    expect(res.headersAt).toBeGreaterThanOrEqual(240);
    expect(JSON.parse(res.text as string).success).toBe(true);
  });

  it('stall: headers and part of the body at once, the rest after stallMs', async () => {
    sb.setFaults({ stall: 1, stallMs: 300 });
    const res = await rawFeed(sb.url);
    expect(res.headersAt).toBeLessThan(200);
    expect(res.bodyAt).toBeGreaterThanOrEqual(290);
    expect(JSON.parse(res.text as string).data).toHaveLength(20);
  });

  it('burst429: the burst runs burstLength requests with minute 429s a second or two ahead', async () => {
    sb.setFaults({ burst429: 1, burstLength: 3 });
    for (let i = 0; i < 3; i++) {
      const res = await get(sb.url, FEED);
      expect(res.status).toBe(429);
      expect(res.json.detail.error).toBe('rate_limit_exceeded');
      expect(res.json.detail.details.limit_type).toBe('minute');
      expect(res.json.detail.details.limit).toBe(60);
      const ahead = Date.parse(res.json.detail.details.reset_at) - Date.now();
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThanOrEqual(2000);
      expect(res.json.detail.details.reset_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(['1', '2']).toContain(res.headers['retry-after']);
    }
    sb.setFaults({});
    expect((await get(sb.url, FEED)).status).toBe(200);
  });

  it('failAfterPages: N good feed pages, then every /v1 request fails until the faults change', async () => {
    await call(sb.url, '/_sandbox/faults', { method: 'POST', body: { failAfterPages: 2 } });
    const first = await get(sb.url, FEED);
    expect(first.status).toBe(200);
    expect((await get(sb.url, '/v1/recalls/sources')).status).toBe(200);
    expect((await get(sb.url, `${FEED}&cursor=${encodeURIComponent(first.json.pagination.next_cursor)}`)).status).toBe(
      200,
    );
    expect((await get(sb.url, FEED)).status).toBe(503);
    expect((await get(sb.url, '/v1/recalls/sources')).status).toBe(503);
    expect(sb.requests().at(-1)?.fault).toBe('fail_after_pages:error503');
    sb.setFaults({ failAfterPages: 0, failMode: 'cut' });
    expect((await rawFeed(sb.url)).error).toBeDefined();
    sb.setFaults({ failAfterPages: 1, failMode: 'error500' });
    expect((await get(sb.url, FEED)).status).toBe(200);
    expect((await get(sb.url, FEED)).status).toBe(500);
    await call(sb.url, '/_sandbox/reset', { method: 'POST' });
    expect((await get(sb.url, FEED)).status).toBe(200);
  });

  it('mixed shares follow the seed: the same seed gives the same sequence', async () => {
    const run = async () => {
      sb.setFaults({ error500: 0.3, error503: 0.3, seed: 7 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await get(sb.url, FEED)).status);
      return statuses;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 500, 503]));
  });

  it('close() does not hang on a stalled answer', async () => {
    const other = await trackedSandbox({ recordCount: 10, faults: { stall: 1 } });
    const pending = rawFeed(other.url);
    // Logged in the same turn that starts the stalled answer.
    await until('the stalled request', () => other.requests().length === 1);
    // A stalled answer that close() waited for would never end: the test's own timeout is the bound.
    await other.close();
    expect((await pending).error).toBeDefined();
  });
});
