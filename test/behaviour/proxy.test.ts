// HTTP_PROXY, HTTPS_PROXY and NO_PROXY in process: plain http through a loopback forward proxy, refusals and
// loopback never proxied. TLS through a tunnel needs NODE_EXTRA_CA_CERTS at start-up: test/e2e/proxy.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, jsonLines, lines, sandboxFirstIds, sandboxFor } from '../helpers/sandbox.js';
import { closedPort, feedThree, silentServer, testProxy, USER_P_AT_SS } from '../helpers/test-proxy.js';

/** The exit code of a connection failure (EXIT.unavailable), as the CLI's help lists it. */
const UNAVAILABLE = 6;

let sandbox: Sandbox;
beforeAll(async () => {
  // A frozen clock: no record crosses the 24-hour edge between the CLI's request and the test's own.
  sandbox = await sandboxFor({ seed: 23, recordCount: 40, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.clearRequests());

/** The error is one line: no other line of stderr (the resume hint follows it) names the proxy. */
const onlyLineNaming = (stderr: string, proxy: string) => lines(stderr).filter((l) => l.includes(proxy)).length === 1;

const HINT =
  "hint: put the proxy's user and password in its address (HTTPS_PROXY for an https API, HTTP_PROXY for http): http://user:password@host:port (percent-encode @ and :)";

describe('plain http through a proxy', () => {
  it('sends the whole address as the request target, with the credentials to the proxy', async () => {
    const proxy = await testProxy({ forwardTo: sandbox.url });
    const r = await runMain(feedThree('http://api.example.test', '--allow-insecure-http'), {
      env: { HTTP_PROXY: `http://user:p%40ss@127.0.0.1:${proxy.port}`, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(0);
    const got = jsonLines(r.stdout).map((x) => x.id);
    expect(sandbox.requests().map((q) => [q.method, q.path, q.key])).toEqual([['GET', '/v1/recalls/feed', 'demo-all']]);
    expect(got).toEqual(await sandboxFirstIds(sandbox, 3));
    expect(proxy.requests).toHaveLength(1);
    const [seen] = proxy.requests;
    expect(seen!.method).toBe('GET');
    expect(seen!.target).toMatch(/^http:\/\/api\.example\.test\/v1\/recalls\/feed\?\S+$/);
    expect(new URL(seen!.target).searchParams.get('limit')).toBe(sandbox.requests()[0]!.query.limit);
    expect(seen!.host).toBe('api.example.test');
    expect(seen!.proxyAuthorization).toBe(USER_P_AT_SS);
  });

  it('a proxy that asks for credentials (407): the proxy named, exit 6 as for a tunnel, never retried, the password never shown', async () => {
    const proxy = await testProxy({ requestStatus: 407 });
    const args = [
      '--base-url',
      'http://api.example.test',
      '--allow-insecure-http',
      'feed',
      '--max',
      '3',
      '-f',
      'jsonl',
    ];
    const r = await runMain(args, {
      env: { HTTP_PROXY: `http://user:hunter2secret@127.0.0.1:${proxy.port}`, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe(
      `error: the proxy 127.0.0.1:${proxy.port} refused a request to api.example.test: it asks for credentials (HTTP 407)`,
    );
    expect(lines(r.stderr)[1]).toBe(HINT);
    expect(onlyLineNaming(r.stderr, `127.0.0.1:${proxy.port}`)).toBe(true);
    expect(r.stderr).not.toContain('hunter2secret');
    expect(proxy.requests.map((q) => q.proxyAuthorization)).toEqual(['Basic dXNlcjpodW50ZXIyc2VjcmV0']);
  });

  it('a proxy that is not there is named in the message, not the API', async () => {
    const port = await closedPort();
    const r = await runMain(feedThree('http://api.example.test', '--allow-insecure-http'), {
      env: { http_proxy: `http://user:hunter2secret@127.0.0.1:${port}`, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe(`error: connection refused by the proxy 127.0.0.1:${port}`);
    expect(onlyLineNaming(r.stderr, `127.0.0.1:${port}`)).toBe(true);
    expect(r.stderr).not.toContain('hunter2secret');
  });
});

describe('loopback is never proxied', () => {
  it('HTTP_PROXY and HTTPS_PROXY set, the sandbox reached directly, the proxy asked nothing', async () => {
    const proxy = await testProxy({ forwardTo: sandbox.url, connectStatus: 407 });
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, http_proxy: proxy.url, https_proxy: proxy.url };
    const r = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--max', '3', '-f', 'jsonl'], { env });
    expect(r.code).toBe(0);
    const got = jsonLines(r.stdout).map((x) => x.id);
    expect(sandbox.requests().map((q) => [q.path, q.key])).toEqual([['/v1/recalls/feed', 'demo-all']]);
    expect(got).toEqual(await sandboxFirstIds(sandbox, 3));
    expect(proxy.requests).toEqual([]);
  });

  it('also as localhost', async () => {
    const proxy = await testProxy({ forwardTo: sandbox.url });
    const port = new URL(sandbox.url).port;
    const r = await runMain(feedThree(`http://localhost:${port}`), {
      env: { HTTP_PROXY: proxy.url, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(0);
    expect(proxy.requests).toEqual([]);
    expect(sandbox.requests()).toHaveLength(1);
  });
});

// A CONNECT that fails never reaches TLS: these need no trusted certificate, so they run in process.
describe('https through a proxy that fails the CONNECT', () => {
  it('a proxy that asks for credentials (407): one line naming the proxy, a hint, exit 6, never retried, the password never shown', async () => {
    const proxy = await testProxy({ connectStatus: 407 });
    // The default retries: a refusal is not sent again.
    const r = await runMain(['--base-url', 'https://api.example.test', 'feed', '--max', '3', '-f', 'jsonl'], {
      env: { HTTPS_PROXY: `http://user:hunter2secret@127.0.0.1:${proxy.port}`, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe(
      `error: the proxy 127.0.0.1:${proxy.port} refused a tunnel to api.example.test:443: it asks for credentials (HTTP 407)`,
    );
    expect(lines(r.stderr)[1]).toBe(HINT);
    expect(onlyLineNaming(r.stderr, `127.0.0.1:${proxy.port}`)).toBe(true);
    expect(r.stdout).toBe('');
    expect(`${r.stdout}${r.stderr}`).not.toContain('hunter2secret');
    expect(proxy.requests.map((q) => [q.method, q.target, q.proxyAuthorization])).toEqual([
      // printf %s 'user:hunter2secret' | base64
      ['CONNECT', 'api.example.test:443', 'Basic dXNlcjpodW50ZXIyc2VjcmV0'],
    ]);
  });

  it('a proxy that is not there: "connection refused by the proxy", exit 6, one attempt with --retries 0', async () => {
    const port = await closedPort();
    const r = await runMain(feedThree('https://api.example.test'), {
      env: { HTTPS_PROXY: `http://user:hunter2secret@127.0.0.1:${port}`, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe(`error: connection refused by the proxy 127.0.0.1:${port}`);
    expect(onlyLineNaming(r.stderr, `127.0.0.1:${port}`)).toBe(true);
    expect(r.stderr).not.toMatch(/retry/i);
    expect(r.stderr).not.toContain('hunter2secret');
  });

  it('a proxy that never answers CONNECT: the --timeout ends the run (exit 6), which then exits', async () => {
    const silent = await silentServer();
    const r = await runMain(['--timeout', '1', ...feedThree('https://api.example.test')], {
      env: { HTTPS_PROXY: `http://user:hunter2secret@127.0.0.1:${silent.port}`, RECALL_FEED_API_KEY: ALL_KEY },
    });
    // It returned by itself: a run that hung would fail this test on its own timeout.
    expect(r.code).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe(
      `error: no complete answer from the proxy 127.0.0.1:${silent.port} within the timeout`,
    );
    expect(r.stderr).not.toContain('hunter2secret');
    // One attempt (--retries 0), ended by the 1 s timeout rather than the test's.
    expect(silent.accepted()).toBe(1);
  });
});
