// A certificate checked against the API's name inside a proxy's tunnel, end to end (NODE_EXTRA_CA_CERTS is read at
// process start). The other transport edges run in process: test/behaviour/transport-edges.test.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, FIXED_START, lines, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { handlerServer } from '../helpers/handler-server.js';
import { selfSignedCert } from '../helpers/self-signed.js';
import { forwardRequest, testProxy } from '../helpers/test-proxy.js';

const UNAVAILABLE = 6;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 31, recordCount: 40, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.clearRequests());

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
