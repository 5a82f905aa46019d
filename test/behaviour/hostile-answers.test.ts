// The CLI against servers that answer badly: each case one clear error line, its hint and its exit code,
// nothing on stdout, no retry where a retry cannot help; and a gateway's path prefix kept.
import type http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { endlessBody, handlerServer, type HandlerServer } from '../helpers/handler-server.js';
import { type MainOptions as RunOptions, runMain } from '../helpers/in-process.js';
import { ALL_KEY, lines } from '../helpers/sandbox.js';
import { errorBody, feedBody } from '../helpers/scripted-server.js';
import { selfSignedCert } from '../helpers/self-signed.js';

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  published_at: '2025-12-11T00:00:00',
  product_name: `kettle ${id}`,
});
const PAGE = JSON.stringify(feedBody([record(1), record(2)]));

let server: HandlerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  tls?: { key: string; cert: string },
) {
  server = await handlerServer(handler, tls);
  return server;
}

function answer(status: number, body: string | Buffer, headers: Record<string, string> = {}) {
  return serve((_req, res) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body));
}

function run(baseUrl: string, args: string[], opts: RunOptions = {}) {
  return runMain(['--base-url', baseUrl, ...args], { ...opts, env: { RECALL_FEED_API_KEY: ALL_KEY, ...opts.env } });
}

/** The error and hint lines, without the resume advice an interrupted export adds after them. */
const firstLines = (stderr: string, n: number) => lines(stderr).slice(0, n);

describe('a base URL with a path', () => {
  it('sends every endpoint under the prefix, with the key', async () => {
    const srv = await serve((req, res) => res.end(req.url?.endsWith('/health') ? '{"status":"healthy"}' : PAGE));
    const feed = await run(`${srv.url}/api`, ['feed', '--max', '1', '-f', 'jsonl']);
    expect(feed.code).toBe(0);
    const health = await run(`${srv.url}/api/`, ['health']);
    expect(health.code).toBe(0);
    expect(srv.requests.map((r) => r.url)).toEqual(['/api/v1/recalls/feed?limit=1', '/api/health']);
    expect(srv.requests[0]!.headers['x-api-key']).toBe(ALL_KEY);
  });
});

describe('the size of an answer', () => {
  it('an endless body stops at 64 MiB by default: exit 7, nothing on stdout', async () => {
    const srv = await serve((_req, res) => endlessBody(res));
    const r = await run(srv.url, ['feed', '-f', 'csv']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(firstLines(r.stderr, 2)).toEqual([
      'error: invalid response from the API: the answer is larger than 64 MiB',
      'hint: a smaller --page-size keeps pages small; raise --max-response-mb if the API really sends answers this large',
    ]);
    expect(srv.requests).toHaveLength(1);
  });

  it('--max-response-mb sets the bound; a bad value is refused before any request', async () => {
    const srv = await serve((_req, res) => endlessBody(res));
    const r = await run(srv.url, ['--max-response-mb', '1', 'feed']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^error: invalid response from the API: the answer is larger than 1 MiB\n/);
    const bad = await run(srv.url, ['--max-response-mb', '0', 'feed']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("error: --max-response-mb must be a whole number from 1 to 500, not '0'\n");
    expect(srv.requests).toHaveLength(1);
  });
});

describe('bodies', () => {
  it('a gzip body is decoded', async () => {
    const srv = await answer(200, gzipSync(Buffer.from(PAGE)), { 'content-encoding': 'gzip' });
    const r = await run(srv.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(record(1))}\n${JSON.stringify(record(2))}\n`);
    expect(r.stderr).toBe('');
  });

  it('a record nested 100,000 levels deep: exit 7 at once, not even a CSV header on stdout', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const srv = await answer(200, PAGE.replace('"product_name":"kettle 1"', `"product_name":${deep}`));
    const r = await run(srv.url, ['feed', '-f', 'csv']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(firstLines(r.stderr, 1)).toEqual([
      'error: invalid response from the API: the answer is nested more than 256 levels deep',
    ]);
    expect(srv.requests).toHaveLength(1);
  });

  it('a 200 with success:false and a detail is the error the detail names, with its message and help', async () => {
    const srv = await answer(
      200,
      JSON.stringify({ success: false, ...errorBody('validation_error', 'hours_ago must be 1-24') }),
    );
    const r = await run(srv.url, ['feed']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(firstLines(r.stderr, 2)).toEqual([
      'error: the API rejected the request: hours_ago must be 1-24',
      'hint: help for validation_error',
    ]);
  });

  it('a 200 with success:false and no reason is an invalid response', async () => {
    const srv = await answer(200, JSON.stringify({ ...JSON.parse(PAGE), success: false }));
    const r = await run(srv.url, ['feed']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(firstLines(r.stderr, 1)).toEqual([
      'error: invalid response from the API: the API answered success: false without saying why',
    ]);
  });
});

describe('a key a header cannot carry', () => {
  const secret = 'dr_live_0123456789abcdef';
  it.each([
    ['the environment', [], { RECALL_FEED_API_KEY: `${secret}\u001b[31mred` }],
    ['--api-key', ['--api-key', `${secret}\tmore`], {}],
  ])('from %s: exit 3 before any request, the key never printed', async (_from, flags, env) => {
    const srv = await answer(200, PAGE);
    const r = await run(srv.url, [...flags, 'feed'], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)[0]).toBe('error: the API key contains control characters (a pasted line break or tab?)');
    expect(lines(r.stderr)[1]).toMatch(/^hint: /);
    expect(r.stderr).not.toContain(secret);
    expect(srv.connections()).toBe(0);
  });

  it.each([
    ['the environment', [], { RECALL_FEED_API_KEY: `${secret} SECRET` }],
    ['--api-key', ['--api-key', `dr_live_abc ${secret}`], {}],
  ])('with a space inside, from %s: exit 3 before any request, as config set refuses it', async (_from, flags, env) => {
    const srv = await answer(200, PAGE);
    const r = await run(srv.url, [...flags, 'feed'], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)[0]).toBe('error: the API key contains a space (two values pasted as one?)');
    expect(r.stderr).not.toContain(secret);
    expect(srv.connections()).toBe(0);
  });
});

describe('TLS', () => {
  it('https to a plain-http port: one line, a hint, exit 6, no retry', async () => {
    const srv = await answer(200, PAGE);
    const r = await run(srv.url.replace('http:', 'https:'), ['feed']);
    expect(r.code).toBe(6);
    const [error, hint] = firstLines(r.stderr, 2);
    expect(error).toMatch(
      /^error: cannot connect securely to 127\.0\.0\.1:\d+: it does not answer in TLS \(ERR_SSL_\w+\)$/,
    );
    expect(hint).toBe(
      'hint: check --base-url: is the server https? A plain-http server (such as a local sandbox) needs http://',
    );
    expect(r.stderr).not.toMatch(/retry|ssl3|openssl/i);
    expect(srv.connections()).toBe(1);
  });

  const cert = selfSignedCert();
  it.skipIf(cert === undefined)('a self-signed certificate: one line, a hint, exit 6, no retry', async () => {
    const srv = await serve((_req, res) => res.end(PAGE), cert);
    const r = await run(srv.url, ['feed']);
    expect(r.code).toBe(6);
    const [error, hint] = firstLines(r.stderr, 2);
    expect(error).toMatch(/^error: cannot connect securely to 127\.0\.0\.1:\d+: its certificate is self-signed$/);
    expect(hint).toBe(
      'hint: if your own proxy or gateway signs this certificate, point NODE_EXTRA_CA_CERTS at its CA file; otherwise check --base-url',
    );
    expect(r.stderr).not.toMatch(/retry/);
    expect(srv.connections()).toBe(1);
  });
});

describe('answers from something that is not the API', () => {
  it('a redirect names its Location in the hint and is not followed: exit 7', async () => {
    const srv = await answer(301, '', { location: 'https://new.example/v1/recalls/feed?limit=50' });
    const r = await run(srv.url, ['feed']);
    expect(r.code).toBe(7);
    expect(firstLines(r.stderr, 2)).toEqual([
      'error: HTTP 301: a redirect to https://new.example/v1/recalls/feed?limit=50, not followed',
      'hint: the API may have moved to https://new.example/v1/recalls/feed?limit=50: if you trust that address, pass its root as --base-url',
    ]);
    expect(srv.requests).toHaveLength(1);
  });

  it('an HTML 404 is a wrong address: exit 7 and a hint to check --base-url', async () => {
    const srv = await answer(404, '<html><body>Not Found</body></html>', { 'content-type': 'text/html' });
    const r = await run(`${srv.url}/wrong`, ['feed']);
    expect(r.code).toBe(7);
    expect(firstLines(r.stderr, 2)).toEqual([
      `error: HTTP 404 for ${srv.url}/wrong/v1/recalls/feed, and not from the API: no API answers at this address`,
      "hint: check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io",
    ]);
    expect(srv.requests).toHaveLength(1);
  });
});

describe('a rate limit that resets decades from now', () => {
  it('says the date and that waiting is pointless, without advising a longer --max-wait: exit 5', async () => {
    const body = errorBody('rate_limit_exceeded', 'slow down', {
      limit_type: 'hour',
      limit: 1000,
      reset_at: '2099-01-01T00:00:00Z',
    });
    const srv = await answer(429, JSON.stringify(body));
    const r = await run(srv.url, ['feed']);
    expect(r.code).toBe(5);
    expect(lines(r.stderr)[0]).toMatch(
      /^error: the hour limit resets only in \d+ days \(on 2099-01-01T00:00:\d\d\.\d{3}Z\): waiting for it is pointless$/,
    );
    expect(r.stderr).not.toContain('raise --max-wait');
    expect(srv.requests).toHaveLength(1);
  });
});
