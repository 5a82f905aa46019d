// Transport edge cases in process: a kept-alive connection the server had closed, headers too large to accept,
// credentials in the base URL (TLS inside a tunnel: test/e2e/proxy-tunnels.test.ts).
import type { Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { handlerServer } from '../helpers/handler-server.js';

const UNAVAILABLE = 6;
const INVALID_RESPONSE = 7;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 31, recordCount: 40, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.clearRequests());

describe('a kept-alive connection the server had closed', () => {
  it('the GET goes once more on a fresh connection, counted as no retry: --retries 0 still exports every page', async () => {
    // In front of the sandbox: the second request on any connection finds it closed, as when a server drops
    // an idle connection just as the next request goes out.
    const served = new WeakMap<Socket, number>();
    let dropped = 0;
    const front = await handlerServer((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n === 2) {
        dropped++;
        req.socket.destroy();
        return;
      }
      // Answered here, keep-alive (forwardRequest would pass on the sandbox's `connection: close`).
      void fetch(`${sandbox.url}${req.url}`, { headers: { 'x-api-key': String(req.headers['x-api-key']) } }).then(
        async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
      );
    });
    const r = await runMain(
      ['--base-url', front.url, '--retries', '0', 'feed', '--page-size', '5', '--max', '15', '-f', 'jsonl'],
      {
        env: { RECALL_FEED_API_KEY: ALL_KEY },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const expected = expectedFeed(sandbox, { now: FIXED_START })
      .slice(0, 15)
      .map((x) => x.id);
    expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(expected);
    // Three pages answered; each connection that was found closed cost one request the sandbox never saw.
    expect(sandbox.requests().map((q) => q.status)).toEqual([200, 200, 200]);
    expect(dropped).toBeGreaterThan(0);
    expect(front.requests).toHaveLength(3 + dropped);
  });

  it('a fresh connection closed without an answer is an ordinary failure, not sent again for free', async () => {
    const front = await handlerServer((req) => req.socket.destroy());
    const r = await runMain(['--base-url', front.url, '--retries', '0', 'feed', '--max', '3', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe(
      `error: connection to ${new URL(front.url).host} closed before the answer was complete`,
    );
    expect(front.requests).toHaveLength(1);
  });
});

describe('headers larger than the client accepts', () => {
  it('are an invalid response (exit 7), not retried, not "something other than HTTP"', async () => {
    const front = await handlerServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'x'.repeat(40_000) });
      res.end('{}');
    });
    // The default retries: were it taken for a broken connection, it would be asked again.
    const r = await runMain(['--base-url', front.url, 'feed', '--max', '3', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(INVALID_RESPONSE);
    expect(lines(r.stderr)[0]).toBe(
      `error: invalid response from the API: ${new URL(front.url).host} answered with a header section larger than the client accepts (UND_ERR_HEADERS_OVERFLOW)`,
    );
    expect(r.stderr).not.toMatch(/retry|other than HTTP/);
    expect(r.stdout).toBe('');
    expect(front.requests).toHaveLength(1);
  });
});

describe('credentials in the base URL', () => {
  const secret = 's3cret-pw';
  it.each([
    ['--base-url', (url: string) => ({ args: ['--base-url', url], env: {} })],
    ['RECALL_FEED_BASE_URL', (url: string) => ({ args: [], env: { RECALL_FEED_BASE_URL: url } })],
  ])('in %s: refused (exit 2, one line and a hint) before any request, never repeated', async (source, given) => {
    const api = await handlerServer((_req, res) => res.end('{}'));
    const withCredentials = api.url.replace('http://', `http://user:${secret}@`);
    const { args, env } = given(withCredentials);
    const target = path.join(tempDir(), 'x.jsonl');
    const r = await runMain([...args, 'feed', '--max', '3', '-f', 'jsonl', '-o', target, '--resume'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY, ...env },
    });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      `error: ${source} holds a user name or password, which recall-feed never sends`,
      "hint: give the API's address alone, e.g. https://api.deeprecall.io; the key goes in RECALL_FEED_API_KEY or `recall-feed config set api-key`",
    ]);
    expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
    expect(api.requests).toEqual([]);
  });

  it('in `config set base-url`: refused, not stored, never repeated', async () => {
    const configDir = tempDir();
    const env = { RECALL_FEED_CONFIG_DIR: configDir };
    const set = await runMain(['config', 'set', 'base-url', `https://user:${secret}@api.example.test`], { env });
    expect(set.code).toBe(2);
    expect(lines(set.stderr)[0]).toBe(
      'error: invalid value for base-url: it holds a user name or password, which recall-feed never sends',
    );
    expect(lines(set.stderr)[1]).toMatch(/^hint: give the API's address alone/);
    const list = await runMain(['config', 'list'], { env });
    expect(`${set.stdout}${set.stderr}${list.stdout}${list.stderr}`).not.toContain(secret);
    expect(list.stdout).not.toContain('api.example.test');
  });
});

describe('a query or fragment in the base URL', () => {
  const token = 'QUERYSECRETtoken123456';
  it.each([
    ['--base-url', (url: string) => ({ args: ['--base-url', url], env: {} })],
    ['RECALL_FEED_BASE_URL', (url: string) => ({ args: [], env: { RECALL_FEED_BASE_URL: url } })],
  ])('in %s: refused (exit 2, one line and a hint) before any request, never repeated', async (source, given) => {
    const api = await handlerServer((_req, res) => res.end('{}'));
    for (const url of [`${api.url}/gw?token=${token}`, `${api.url}/#${token}`]) {
      const { args, env } = given(url);
      const r = await runMain([...args, 'feed', '--max', '3', '-f', 'jsonl'], {
        env: { RECALL_FEED_API_KEY: ALL_KEY, ...env },
      });
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([
        `error: ${source} holds a query or fragment (after ? or #), which recall-feed never sends`,
        "hint: give the API's address alone, e.g. https://api.deeprecall.io (a path such as https://gw.example/recalls is kept)",
      ]);
      expect(`${r.stdout}${r.stderr}`).not.toContain(token);
    }
    expect(api.requests).toEqual([]);
  });

  it('a base URL that is no URL is repeated without its query', async () => {
    const r = await runMain(['--base-url', `http://[bad/x?token=${token}`, 'feed', '--max', '1'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)[0]).toBe("error: --base-url is not a URL: 'http://[bad/x?…'");
    expect(r.stderr).not.toContain(token);
  });
});
