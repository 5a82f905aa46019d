// The client against hostile or odd answers: path prefixes, size bounds, compression, deep nesting,
// success:false, bad keys, TLS failures, redirects, pages that are not the API's and absurd resets.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { RecallFeedClient, type ClientOptions } from '../../src/api/client.js';
import {
  InvalidResponseError,
  MalformedApiKeyError,
  NotFoundError,
  RedirectError,
  ResponseTooLargeError,
  TlsError,
  ValidationError,
  WaitTooLongError,
  WrongAddressError,
} from '../../src/api/api-errors.js';
import { endlessBody, handlerServer, type HandlerServer } from '../helpers/handler-server.js';
import { errorBody, feedBody } from '../helpers/scripted-server.js';
import { selfSignedCert } from '../helpers/self-signed.js';
import { feedIds, virtualClient } from '../helpers/virtual-client.js';

const KEY = 'dr_test_0123456789abcdef0123456789abcdef01234567';
const record = (id: number) => ({ id, data_source: 'us_cpsc', published_at: '2025-12-11T00:00:00' });
const PAGE = JSON.stringify(feedBody([record(1), record(2)]));

let servers: HandlerServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(...args: Parameters<typeof handlerServer>): Promise<HandlerServer> {
  const s = await handlerServer(...args);
  servers.push(s);
  return s;
}

/** Answers each request with the next of `answers` (the last one repeats). */
function answering(answers: { status?: number; headers?: Record<string, string>; body: string | Buffer }[]) {
  let i = 0;
  return serve((_req, res) => {
    const a = answers[Math.min(i++, answers.length - 1)]!;
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers }).end(a.body);
  });
}

/** A client on a virtual clock; `sleeps` records every wait (retries show up there). */
function clientFor(baseUrl: string, opts: ClientOptions = {}) {
  return virtualClient(baseUrl, Date.parse('2026-03-10T12:00:00Z'), { apiKey: KEY, ...opts });
}

const ids = feedIds;

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('the base URL', () => {
  it.each(['/api', '/api/'])('keeps its path %s as a prefix of every endpoint', async (prefix) => {
    const srv = await answering([{ body: PAGE }]);
    const { client } = clientFor(`${srv.url}${prefix}`);
    await ids(client);
    await client.sources().catch(() => undefined);
    await client.health().catch(() => undefined);
    expect(srv.requests.map((r) => r.url)).toEqual(['/api/v1/recalls/feed', '/api/v1/recalls/sources', '/api/health']);
    await client.close();
  });
});

describe('the size of an answer', () => {
  it('abandons a body without end at the bound, once, without retrying', async () => {
    const srv = await serve((_req, res) => endlessBody(res));
    const { client, sleeps } = clientFor(srv.url, { maxResponseBytes: 1024 * 1024 });
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).message).toBe('the answer is larger than 1 MiB');
    expect((err as ResponseTooLargeError).limitBytes).toBe(1024 * 1024);
    expect(srv.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it('bounds the decoded size: a small gzip body that inflates past the bound is refused', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(100_000);
    const srv = await answering([{ headers: { 'content-encoding': 'gzip' }, body: bomb }]);
    const { client } = clientFor(srv.url, { maxResponseBytes: 1024 * 1024 });
    expect(await failure(ids(client))).toBeInstanceOf(ResponseTooLargeError);
    await client.close();
  });

  it('reads an answer of exactly the bound', async () => {
    const srv = await answering([{ body: PAGE }]);
    const { client } = clientFor(srv.url, { maxResponseBytes: Buffer.byteLength(PAGE) });
    expect(await ids(client)).toEqual([1, 2]);
    await client.close();
  });

  it('reads pages of every size one after another whole, however the body is cut into chunks', async () => {
    // Sizes around the buffer the reader keeps between bodies: larger, smaller, past its bound, in one piece.
    const sizes = [3_000, 400, 9_000, 1];
    const pages = sizes.map((count, p) =>
      Array.from({ length: count }, (_, i) => ({
        ...record(p * 10_000 + i),
        alert_title: `Rappel ${p}/${i} : Huîtres « été » ${'é'.repeat(i % 7)} 🦪`,
        alert_summary: p === 2 ? `${i} ${'Présence de norovirus. '.repeat(20)}` : `${i}`,
      })),
    );
    const bodies = pages.map((data, p) =>
      Buffer.from(JSON.stringify(feedBody(data, { hasMore: p < pages.length - 1, next: `c${p + 1}` }))),
    );
    let served = 0;
    const srv = await serve((_req, res) => {
      const body = bodies[served]!;
      // The last page in one write; the others in pieces that split multi-byte characters.
      const piece = served === bodies.length - 1 ? body.length : 997 + served;
      served++;
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < body.length; at += piece) res.write(body.subarray(at, at + piece));
      res.end();
    });
    const { client } = clientFor(srv.url);
    const got: unknown[] = [];
    for await (const r of client.feed()) got.push(r);
    expect(got).toEqual(pages.flat());
    expect(bodies[2]!.length).toBeGreaterThan(4 * 1024 * 1024);
    await client.close();
  });

  it('refuses a bound that is not a positive whole number', () => {
    expect(() => new RecallFeedClient({ maxResponseBytes: 0 })).toThrow(
      /maxResponseBytes must be a positive whole number/,
    );
    expect(() => new RecallFeedClient({ maxResponseBytes: 1.5 })).toThrow(/maxResponseBytes/);
  });
});

describe('compressed answers', () => {
  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('decodes %s, and asks for compression', async (coding, compress) => {
    const srv = await answering([{ headers: { 'content-encoding': coding }, body: compress(Buffer.from(PAGE)) }]);
    const { client, sleeps } = clientFor(srv.url);
    expect(await ids(client)).toEqual([1, 2]);
    expect(sleeps).toEqual([]);
    expect(srv.requests[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
    await client.close();
  });

  it('decodes codings applied one after the other', async () => {
    const body = brotliCompressSync(gzipSync(Buffer.from(PAGE)));
    const srv = await answering([{ headers: { 'content-encoding': 'gzip, br' }, body }]);
    const { client } = clientFor(srv.url);
    expect(await ids(client)).toEqual([1, 2]);
    await client.close();
  });

  it('retries a body that does not decode, like a cut one', async () => {
    const srv = await answering([
      { headers: { 'content-encoding': 'gzip' }, body: gzipSync(Buffer.from(PAGE)).subarray(0, 30) },
      { headers: { 'content-encoding': 'gzip' }, body: Buffer.from('not gzip at all') },
      { headers: { 'content-encoding': 'gzip' }, body: gzipSync(Buffer.from(PAGE)) },
    ]);
    const { client, sleeps } = clientFor(srv.url);
    expect(await ids(client)).toEqual([1, 2]);
    expect(sleeps).toHaveLength(2);
    await client.close();
  });

  it('refuses a coding it cannot decode without retrying, naming it only when it looks like one', async () => {
    const srv = await answering([{ headers: { 'content-encoding': 'zstd' }, body: 'x' }]);
    const { client, sleeps } = clientFor(srv.url);
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toBe(
      "the API answered with Content-Encoding 'zstd', which the client cannot decode",
    );
    expect(sleeps).toEqual([]);
    await client.close();
  });
});

describe('bodies the client must not pass on', () => {
  it('refuses a record nested 100,000 levels deep without retrying or yielding anything', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const body = PAGE.replace('"data_source":"us_cpsc"', `"data_source":"us_cpsc","nest":${deep}`);
    const srv = await answering([{ body }]);
    const { client, sleeps } = clientFor(srv.url);
    const seen: unknown[] = [];
    const err = await failure(
      (async () => {
        for await (const r of client.feed()) seen.push(r);
      })(),
    );
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toBe('the answer is nested more than 256 levels deep');
    expect(seen).toEqual([]);
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it('passes a record nested 250 levels deep', async () => {
    const nest = `${'['.repeat(250)}${']'.repeat(250)}`;
    const srv = await answering([
      { body: PAGE.replace('"data_source":"us_cpsc"', `"data_source":"us_cpsc","nest":${nest}`) },
    ]);
    const { client } = clientFor(srv.url);
    expect(await ids(client)).toEqual([1, 2]);
    await client.close();
  });

  it('turns a 200 with success:false and a detail into the error the detail names, with its message', async () => {
    const srv = await answering([
      { body: JSON.stringify({ success: false, ...errorBody('validation_error', 'hours_ago must be 1-24') }) },
    ]);
    const { client, sleeps } = clientFor(srv.url);
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toBe('hours_ago must be 1-24');
    expect((err as ValidationError).help).toBe('help for validation_error');
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it('turns a 200 with success:false and no reason into an invalid response, for sources too', async () => {
    const srv = await answering([{ body: JSON.stringify({ ...JSON.parse(PAGE), success: false }) }]);
    const { client } = clientFor(srv.url);
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toBe('the API answered success: false without saying why');
    expect(await failure(client.sources())).toBeInstanceOf(InvalidResponseError);
    expect(srv.requests).toHaveLength(2);
    await client.close();
  });
});

describe('keys a header cannot carry', () => {
  it.each([
    ['a line break', `${KEY}\n`, /control characters/],
    ['an escape sequence', `dr_\u001b[31m${KEY}`, /control characters/],
    ['a tab', `dr_test\t${KEY}`, /control characters/],
    ['a non-ASCII letter', `dr_tést_${KEY}`, /printable ASCII/],
  ])('refuses a key with %s before any request, without quoting it', async (_what, key, message) => {
    const srv = await answering([{ body: PAGE }]);
    let err: unknown;
    try {
      new RecallFeedClient({ apiKey: key, baseUrl: srv.url });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MalformedApiKeyError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('0123456789abcdef');
    expect(srv.connections()).toBe(0);
  });
});

describe('TLS failures', () => {
  it('https to a plain-http port: one attempt, a TlsError of kind protocol in one plain line', async () => {
    const srv = await answering([{ body: PAGE }]);
    const { client, sleeps } = clientFor(srv.url.replace('http:', 'https:'), { retries: 3 });
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(TlsError);
    expect((err as TlsError).kind).toBe('protocol');
    expect((err as Error).message).toMatch(
      /^cannot connect securely to 127\.0\.0\.1:\d+: it does not answer in TLS \(ERR_SSL_\w+\)$/,
    );
    expect(sleeps).toEqual([]);
    expect(srv.connections()).toBe(1);
    await client.close();
  });

  const cert = selfSignedCert();
  it.skipIf(cert === undefined)('a self-signed certificate: one attempt, a TlsError of kind certificate', async () => {
    const srv = await serve((_req, res) => res.end(PAGE), cert);
    const { client, sleeps } = clientFor(srv.url, { retries: 3 });
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(TlsError);
    expect((err as TlsError).kind).toBe('certificate');
    expect((err as Error).message).toMatch(
      /^cannot connect securely to 127\.0\.0\.1:\d+: its certificate is self-signed$/,
    );
    expect(sleeps).toEqual([]);
    expect(srv.requests).toEqual([]);
    await client.close();
  });
});

describe('answers from something that is not the API', () => {
  it.each([
    ['an absolute Location', 'https://user:pw@new.example/v1/recalls/feed', 'https://new.example/v1/recalls/feed'],
    ['a relative Location', '/moved/v1', '/moved/v1'],
    ['a Location with spaces and quotes', '/a b"c', '/a%20b%22c'],
  ])('a redirect with %s names where it points and is not followed', async (_what, location, shown) => {
    const srv = await answering([{ status: 301, headers: { location }, body: '' }]);
    const { client, sleeps } = clientFor(srv.url);
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(RedirectError);
    const expected = shown.startsWith('/') ? `${srv.url}${shown}` : shown;
    expect((err as RedirectError).location).toBe(expected);
    expect((err as Error).message).toBe(`HTTP 301: a redirect to ${expected}, not followed`);
    expect(srv.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it("a 404 web page, or the API's own not_found off a custom feed's path, is a wrong address", async () => {
    const srv = await answering([
      { status: 404, headers: { 'content-type': 'text/html' }, body: '<html><h1>Not Found</h1></html>' },
      { status: 404, body: JSON.stringify(errorBody('not_found', 'No such endpoint: /wrong/v1/recalls/feed')) },
    ]);
    const { client } = clientFor(`${srv.url}/wrong`);
    const html = await failure(ids(client));
    expect(html).toBeInstanceOf(WrongAddressError);
    expect(html).not.toBeInstanceOf(NotFoundError);
    expect((html as Error).message).toBe(
      `HTTP 404 for ${srv.url}/wrong/v1/recalls/feed, and not from the API: no API answers at this address`,
    );
    const api = await failure(ids(client));
    expect(api).toBeInstanceOf(WrongAddressError);
    expect(api).not.toBeInstanceOf(NotFoundError);
    expect((api as Error).message).toBe(
      `HTTP 404 for ${srv.url}/wrong/v1/recalls/feed: no API endpoint at this address ` +
        '(the server said: No such endpoint: /wrong/v1/recalls/feed)',
    );
    await client.close();
  });

  it("the API's own not_found under a custom feed's path stays a NotFoundError, in its words", async () => {
    const srv = await answering([
      { status: 404, body: JSON.stringify(errorBody('not_found', 'no custom feed named demo')) },
    ]);
    const { client } = clientFor(srv.url);
    const api = await failure(client.customFeed('demo').next());
    expect(api).toBeInstanceOf(NotFoundError);
    expect(api).not.toBeInstanceOf(WrongAddressError);
    expect((api as Error).message).toBe('no custom feed named demo');
    await client.close();
  });
});

describe('absurd rate-limit resets', () => {
  // The server's clock agrees with the client's virtual one: a 429's wait is measured against its Date header.
  const VIRTUAL_DATE = { date: 'Tue, 10 Mar 2026 12:00:00 GMT' };
  it('a reset decades away gives up at once, in days, and says raising the wait is pointless', async () => {
    const reset = '2099-01-01T00:00:00Z';
    const srv = await answering([
      {
        status: 429,
        headers: VIRTUAL_DATE,
        body: JSON.stringify(
          errorBody('rate_limit_exceeded', 'slow', { limit_type: 'hour', limit: 1, reset_at: reset }),
        ),
      },
    ]);
    const { client, sleeps } = clientFor(srv.url, { maxWaitMs: 10 * 365 * 86_400_000 });
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(WaitTooLongError);
    const days = Math.floor((Date.parse(reset) - Date.parse('2026-03-10T12:00:00Z')) / 86_400_000);
    expect((err as Error).message).toBe(`the hour limit resets only in ${days} days`);
    expect((err as WaitTooLongError).pointless).toBe(true);
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it('a reset within a month is not pointless', async () => {
    const srv = await answering([
      {
        status: 429,
        headers: VIRTUAL_DATE,
        body: JSON.stringify(
          errorBody('rate_limit_exceeded', 'slow', { limit_type: 'day', limit: 1, reset_at: '2026-03-11T12:00:00Z' }),
        ),
      },
    ]);
    const { client } = clientFor(srv.url, { maxWaitMs: 60_000 });
    const err = await failure(ids(client));
    expect(err).toBeInstanceOf(WaitTooLongError);
    expect((err as WaitTooLongError).pointless).toBe(false);
    expect((err as Error).message).toMatch(/^the day limit resets only in \d+ s$/);
    await client.close();
  });
});
