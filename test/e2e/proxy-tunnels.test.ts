// HTTPS through a proxy's tunnel, trusted through NODE_EXTRA_CA_CERTS (read only at process start, hence spawned). Issue
// 17's "done when": an export through an HTTP proxy that needs credentials is exact; NO_PROXY sends a host around it; a
// 407 ends the run at once, naming the proxy; neither the key nor the password is printed. And the certificate inside
// the tunnel is checked against the API's name (the other transport edges: test/behaviour/transport-edges.test.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, FIXED_START, jsonLines, lines, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { expectedFeed } from '../helpers/expected.js';
import { handlerServer } from '../helpers/handler-server.js';
import { selfSignedCert } from '../helpers/self-signed.js';
import { forwardRequest, testProxy } from '../helpers/test-proxy.js';

const UNAVAILABLE = 6;
const USER = 'us er';
const PASSWORD = 'p@ss w0rd:x';
/** What the proxy must be sent, computed here from the plain user and password. */
const CREDENTIALS = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 41, recordCount: 40, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.clearRequests());

const apiCert = selfSignedCert('api.example.test');

/** The API behind the name api.example.test (TLS, trusted through NODE_EXTRA_CA_CERTS), reachable only by a tunnel. */
async function apiBehindProxy() {
  const front = await handlerServer((req, res) => forwardRequest(sandbox.url, req, res), apiCert);
  const proxy = await testProxy({ tunnelTo: Number(new URL(front.url).port), requireAuth: CREDENTIALS });
  const ca = path.join(tempDir('rf-ca-'), 'ca.pem');
  writeFileSync(ca, apiCert!.cert);
  return { front, proxy, ca };
}

const feed = ['--base-url', 'https://api.example.test', 'feed', '--page-size', '10', '--max', '25', '-f', 'jsonl'];

describe.skipIf(apiCert === undefined)('an export through a proxy that needs credentials', () => {
  it.each([
    ['percent-encoded', 'us%20er:p%40ss%20w0rd%3Ax'],
    ['as typed (the last @ ends them)', `${USER}:${PASSWORD}`],
  ])(
    'a user and password with a space, an @ and a colon, %s, are sent right; the export is exact',
    async (_how, userinfo) => {
      const { front, proxy, ca } = await apiBehindProxy();
      const r = await runCli(feed, {
        env: {
          HTTPS_PROXY: `http://${userinfo}@127.0.0.1:${proxy.port}`,
          NODE_EXTRA_CA_CERTS: ca,
          RECALL_FEED_API_KEY: ALL_KEY,
        },
      });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const expected = expectedFeed(sandbox, { now: FIXED_START })
        .slice(0, 25)
        .map((x) => x.id);
      expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(expected);
      // Every tunnel (undici may open a second while the first is busy) carried the right credentials;
      // the key went inside them only.
      expect(proxy.requests.length).toBeGreaterThan(0);
      for (const q of proxy.requests) {
        expect(q).toEqual({
          method: 'CONNECT',
          target: 'api.example.test:443',
          host: 'api.example.test',
          proxyAuthorization: CREDENTIALS,
        });
      }
      expect(front.requests.map((q) => [q.headers['x-api-key'], q.headers['proxy-authorization']])).toEqual([
        [ALL_KEY, undefined],
        [ALL_KEY, undefined],
        [ALL_KEY, undefined],
      ]);
    },
  );

  it('NO_PROXY sends the host around the proxy (here: straight to a name no DNS knows)', async () => {
    const { proxy, ca } = await apiBehindProxy();
    const r = await runCli(['--retries', '0', ...feed], {
      env: {
        HTTPS_PROXY: `http://us%20er:p%40ss%20w0rd%3Ax@127.0.0.1:${proxy.port}`,
        NO_PROXY: 'other.test,.example.test',
        NODE_EXTRA_CA_CERTS: ca,
        RECALL_FEED_API_KEY: ALL_KEY,
      },
    });
    expect(r.exitCode).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe('error: cannot resolve api.example.test');
    expect(proxy.requests).toEqual([]);
  });

  it('a 407 ends the run at once, without a retry, naming the proxy; the key and the password are never printed', async () => {
    const { front, proxy, ca } = await apiBehindProxy();
    const wrong = 'n0t-the-p@ssword';
    // The default retries (3): a refusal is not sent again.
    const r = await runCli(feed, {
      env: {
        HTTPS_PROXY: `http://us%20er:${encodeURIComponent(wrong)}@127.0.0.1:${proxy.port}`,
        NODE_EXTRA_CA_CERTS: ca,
        RECALL_FEED_API_KEY: ALL_KEY,
      },
    });
    expect(r.exitCode).toBe(UNAVAILABLE);
    expect(lines(r.stderr)[0]).toBe(
      `error: the proxy 127.0.0.1:${proxy.port} refused a tunnel to api.example.test:443: it asks for credentials (HTTP 407)`,
    );
    expect(lines(r.stderr)[1]).toMatch(/^hint: put the proxy's user and password in its address/);
    expect(r.stderr).not.toMatch(/retry/i);
    expect(r.stdout).toBe('');
    for (const secret of [wrong, encodeURIComponent(wrong), ALL_KEY])
      expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
    expect(proxy.requests).toHaveLength(1);
    expect(front.requests).toEqual([]);
  });
});

const otherCert = selfSignedCert('other.example.test');

describe('TLS inside a tunnel', () => {
  it.skipIf(otherCert === undefined)(
    "checks the certificate against the API's name, not the proxy's: a trusted certificate for another name is refused",
    async () => {
      const front = await handlerServer((req, res) => forwardRequest(sandbox.url, req, res), otherCert);
      const proxy = await testProxy({ tunnelTo: Number(new URL(front.url).port) });
      const ca = path.join(tempDir('rf-ca-'), 'ca.pem');
      writeFileSync(ca, otherCert!.cert);
      const r = await runCli(['--base-url', 'https://api.example.test', 'feed', '--max', '3', '-f', 'jsonl'], {
        env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca, RECALL_FEED_API_KEY: ALL_KEY },
      });
      expect(r.exitCode).toBe(UNAVAILABLE);
      expect(lines(r.stderr)[0]).toBe(
        'error: cannot connect securely to api.example.test: its certificate is for another host name',
      );
      expect(lines(r.stderr)[1]).toMatch(/^hint: /);
      // A certificate problem is no transient failure: one tunnel, no retry.
      expect(proxy.requests.map((q) => [q.method, q.target])).toEqual([['CONNECT', 'api.example.test:443']]);
      expect(front.requests).toEqual([]);
    },
  );
});
