// HTTPS through a proxy's CONNECT tunnel and --webhook through it, end to end: the API's self-signed certificate is
// trusted through NODE_EXTRA_CA_CERTS, which only a new process reads. The rest: test/behaviour/proxy.test.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, FIXED_START, jsonLines, lines, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { handlerServer } from '../helpers/handler-server.js';
import { selfSignedCert } from '../helpers/self-signed.js';
import { feedThree, forwardRequest, testProxy, USER_P_AT_SS } from '../helpers/test-proxy.js';
import { sandboxFirstIds } from '../helpers/sandbox.js';

/** The exit code of a connection failure (EXIT.unavailable), as the CLI's help lists it. */
const UNAVAILABLE = 6;
const USAGE = 2;

let sandbox: Sandbox;
beforeAll(async () => {
  // A frozen clock: no record crosses the 24-hour edge between the CLI's request and the test's own.
  sandbox = await sandboxFor({ seed: 23, recordCount: 40, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.clearRequests());

/** A file holding `pem`, for NODE_EXTRA_CA_CERTS. */
function caFile(pem: string): string {
  const file = path.join(tempDir('rf-ca-'), 'ca.pem');
  writeFileSync(file, pem);
  return file;
}

/** A TLS server (certificate for `cert`'s name) that passes every request on to the sandbox: the API behind the name. */
async function tlsFrontOfSandbox(cert: { key: string; cert: string }) {
  const front = await handlerServer((req, res) => forwardRequest(sandbox.url, req, res), cert);
  return { ...front, port: Number(new URL(front.url).port) };
}

const apiCert = selfSignedCert('api.example.test');

describe('https through a proxy (CONNECT)', () => {
  it.skipIf(apiCert === undefined)(
    'tunnels to the API name with the decoded credentials; TLS is checked against that name',
    async () => {
      const front = await tlsFrontOfSandbox(apiCert!);
      const proxy = await testProxy({ tunnelTo: front.port });
      const r = await runCli(feedThree('https://api.example.test'), {
        env: {
          HTTPS_PROXY: `http://user:p%40ss@127.0.0.1:${proxy.port}`,
          NODE_EXTRA_CA_CERTS: caFile(apiCert!.cert),
          RECALL_FEED_API_KEY: ALL_KEY,
        },
      });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const got = jsonLines(r.stdout).map((x) => x.id);
      const requests = sandbox.requests();
      expect(requests.map((q) => [q.method, q.path, q.key, q.status])).toEqual([
        ['GET', '/v1/recalls/feed', 'demo-all', 200],
      ]);
      expect(got).toEqual(await sandboxFirstIds(sandbox, 3));
      expect(got).toHaveLength(3);
      expect(proxy.requests).toEqual([
        {
          method: 'CONNECT',
          target: 'api.example.test:443',
          // undici names the host alone in a CONNECT's Host header.
          host: 'api.example.test',
          proxyAuthorization: USER_P_AT_SS,
        },
      ]);
      // Inside the tunnel the API sees its own name and the key; the proxy's credentials stay with the proxy.
      expect(
        front.requests.map((q) => [q.headers.host, q.headers['x-api-key'], q.headers['proxy-authorization']]),
      ).toEqual([['api.example.test', ALL_KEY, undefined]]);
    },
  );

  it.skipIf(apiCert === undefined)(
    'lower-case https_proxy works too, and NO_PROXY sends the request around the proxy',
    async () => {
      const front = await tlsFrontOfSandbox(apiCert!);
      const proxy = await testProxy({ tunnelTo: front.port });
      const env = {
        https_proxy: `127.0.0.1:${proxy.port}`,
        NODE_EXTRA_CA_CERTS: caFile(apiCert!.cert),
        RECALL_FEED_API_KEY: ALL_KEY,
      };
      const through = await runCli(feedThree('https://api.example.test'), { env });
      expect(through.exitCode).toBe(0);
      expect(proxy.requests.map((q) => [q.method, q.target, q.proxyAuthorization])).toEqual([
        ['CONNECT', 'api.example.test:443', undefined],
      ]);
      // Around the proxy there is no way to api.example.test: the name does not resolve.
      const around = await runCli(feedThree('https://api.example.test'), {
        env: { ...env, NO_PROXY: 'foo.test, .example.test' },
      });
      expect(around.exitCode).toBe(UNAVAILABLE);
      expect(lines(around.stderr)[0]).toBe('error: cannot resolve api.example.test');
      expect(proxy.requests).toHaveLength(1);
    },
  );

  const proxyCert = selfSignedCert();
  it.skipIf(apiCert === undefined || proxyCert === undefined)(
    'an https:// proxy: TLS to the proxy, a tunnel and TLS to the API inside it; plain http is tunnelled through it too',
    async () => {
      const front = await tlsFrontOfSandbox(apiCert!);
      const proxy = await testProxy({ tunnelTo: front.port, tls: proxyCert! });
      // undici tunnels every request through an https:// proxy, plain http included: this one's tunnels end at the sandbox.
      const plainProxy = await testProxy({ tunnelTo: Number(new URL(sandbox.url).port), tls: proxyCert! });
      const env = {
        HTTPS_PROXY: proxy.url,
        HTTP_PROXY: plainProxy.url,
        // Both certificates trusted: the proxy's (localhost) and the API's (api.example.test).
        NODE_EXTRA_CA_CERTS: caFile(`${apiCert!.cert}${proxyCert!.cert}`),
        RECALL_FEED_API_KEY: ALL_KEY,
      };
      const tunnelled = await runCli(feedThree('https://api.example.test'), { env });
      expect(tunnelled.stderr).toBe('');
      expect(tunnelled.exitCode).toBe(0);
      expect(jsonLines(tunnelled.stdout).map((x) => x.id)).toEqual(await sandboxFirstIds(sandbox, 3));
      const plain = await runCli(feedThree('http://api.example.test', '--allow-insecure-http'), { env });
      expect(plain.exitCode).toBe(0);
      expect(jsonLines(plain.stdout).map((x) => x.id)).toEqual(await sandboxFirstIds(sandbox, 3));
      expect(proxy.requests.map((q) => [q.method, q.target])).toEqual([['CONNECT', 'api.example.test:443']]);
      expect(plainProxy.requests.map((q) => [q.method, q.target])).toEqual([['CONNECT', 'api.example.test:80']]);
    },
  );

  it.skipIf(apiCert === undefined)(
    'an invalid proxy setting: exit 2, a message without it, and nothing sent (not even through HTTP_PROXY)',
    async () => {
      // A working path to the API exists (HTTP_PROXY, a tunnel, a trusted certificate): were the bad
      // HTTPS_PROXY skipped rather than refused, the request would reach the sandbox through it.
      const front = await tlsFrontOfSandbox(apiCert!);
      const proxy = await testProxy({ tunnelTo: front.port });
      const r = await runCli(feedThree('https://api.example.test'), {
        env: {
          HTTP_PROXY: proxy.url,
          HTTPS_PROXY: 'http://user:secret@[bad',
          NODE_EXTRA_CA_CERTS: caFile(apiCert!.cert),
          RECALL_FEED_API_KEY: ALL_KEY,
        },
      });
      expect(r.exitCode).toBe(USAGE);
      expect(lines(r.stderr)[0]).toMatch(
        /^error: the proxy for https:\/\/ addresses is not an http:\/\/ or https:\/\/ address$/,
      );
      expect(r.stderr).not.toContain('secret');
      expect(r.stderr).not.toContain('[bad');
      expect(r.stdout).toBe('');
      expect(proxy.requests).toEqual([]);
      expect(front.connections()).toBe(0);
      expect(sandbox.requests()).toEqual([]);
    },
  );
});

const hookCert = selfSignedCert('hooks.example.test');

describe('--webhook through the proxy', () => {
  it.skipIf(hookCert === undefined)(
    'posts each new recall through a CONNECT tunnel, while the API (loopback) is reached directly',
    async () => {
      const received: { id: unknown; host: string | undefined; url: string }[] = [];
      const receiver = await handlerServer((req, res) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          received.push({ id: JSON.parse(body).id, host: req.headers.host, url: req.url ?? '' });
          res.end('ok');
        });
      }, hookCert);
      const proxy = await testProxy({ tunnelTo: Number(new URL(receiver.url).port) });
      const state = path.join(tempDir(), 'state.json');
      const r = await runAgainst(
        sandbox,
        [
          '--retries',
          '0',
          'feed',
          '--max',
          '2',
          '-f',
          'jsonl',
          '--state',
          state,
          '--webhook',
          'https://hooks.example.test/services/T1/secret-token',
        ],
        {
          env: {
            HTTPS_PROXY: `http://user:p%40ss@127.0.0.1:${proxy.port}`,
            NODE_EXTRA_CA_CERTS: caFile(hookCert!.cert),
          },
        },
      );
      expect(r.exitCode).toBe(0);
      const written = jsonLines(r.stdout).map((x) => x.id);
      expect(written).toHaveLength(2);
      expect(received.map((x) => x.id)).toEqual(written);
      expect(received.every((x) => x.host === 'hooks.example.test' && x.url === '/services/T1/secret-token')).toBe(
        true,
      );
      // One tunnel, kept alive for both deliveries; the sandbox (loopback) never went through the proxy.
      expect(proxy.requests).toEqual([
        {
          method: 'CONNECT',
          target: 'hooks.example.test:443',
          host: 'hooks.example.test',
          proxyAuthorization: USER_P_AT_SS,
        },
      ]);
      expect(sandbox.requests().length).toBeGreaterThan(0);
      expect(sandbox.requests().every((q) => q.key === 'demo-all')).toBe(true);
      expect(r.stderr).not.toContain('secret-token');
    },
  );
});
