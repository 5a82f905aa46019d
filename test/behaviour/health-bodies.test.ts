// `health` against bodies other than the sandbox's (the operator documents none): a 2xx is up unless its status says
// it is not; plain text is up; a web page or a 404 (FastAPI's `{"detail":"Not Found"}` too) is not the API.
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain } from '../helpers/in-process.js';

const BASE_URL_HINT =
  "hint: check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io\n";

/** A server answering every request with `status`, `body` (JSON unless a string) and its content type. */
function answering(status: number, body: unknown, type = 'application/json') {
  return handlerServer((_req, res) => {
    res.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

describe('health: a 2xx is up unless its status says otherwise', () => {
  for (const status of ['ok', 'OK', 'Up', 'healthy']) {
    it(`{"status":"${status}"}: up, its status said as it is (exit 0)`, async () => {
      const server = await answering(200, { status });
      const line = await runMain(['--base-url', server.url, 'health']);
      expect(line.stderr).toBe('');
      expect(line.code).toBe(0);
      // The fake clock does not move during the request: 0 ms.
      expect(line.stdout).toBe(`${status} (HTTP 200, 0 ms) ${server.url}\n`);
      const json = await runMain(['--base-url', server.url, 'health', '-f', 'json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ status, healthy: true, http_status: 200, latency_ms: 0 });
    });
  }

  it('plain-text OK: up (exit 0), said as it is, in the JSON too', async () => {
    const server = await answering(200, 'OK', 'text/plain');
    const line = await runMain(['--base-url', server.url, 'health']);
    expect(line.stderr).toBe('');
    expect(line.code).toBe(0);
    expect(line.stdout).toBe(`OK (HTTP 200, 0 ms) ${server.url}\n`);
    const json = await runMain(['--base-url', server.url, 'health', '-f', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ status: 'OK', healthy: true, http_status: 200, latency_ms: 0 });
  });

  for (const status of ['down', 'Unhealthy', 'DEGRADED']) {
    it(`a 200 saying "${status}" is not up: exit 6`, async () => {
      const server = await answering(200, { status });
      const r = await runMain(['--base-url', server.url, 'health']);
      expect(r.code).toBe(6);
      expect(r.stdout).toBe(`${status} (HTTP 200, 0 ms) ${server.url}\n`);
      expect(r.stderr).toBe(`error: the API reports '${status}' (HTTP 200)\n`);
    });
  }

  it("the body's own healthy field does not replace the verdict", async () => {
    const server = await answering(200, { status: 'ok', healthy: false, http_status: 503 });
    const r = await runMain(['--base-url', server.url, 'health', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'ok', healthy: true, http_status: 200, latency_ms: 0 });
  });

  it('a 503 saying ok is still down (exit 6)', async () => {
    const server = await answering(503, { status: 'ok' });
    const r = await runMain(['--base-url', server.url, 'health']);
    expect(r.code).toBe(6);
    expect(r.stderr).toBe("error: the API reports 'ok' (HTTP 503)\n");
  });
});

describe('health: answers that are not the API', () => {
  it.each<[string, string | object, string]>([
    ['a web page (a site answering every path)', '<!doctype html><html><body>Welcome</body></html>', 'text/html'],
    ['an empty body', '', 'text/plain'],
    ['JSON without a status', { service: 'other', version: '2' }, 'application/json'],
    ['a sentence of plain text', 'Welcome to our gateway', 'text/plain'],
  ])('a 200 with %s: no status, so not the API: exit 7, nothing written', async (_what, body, type) => {
    const server = await answering(200, body, type);
    const r = await runMain(['--base-url', server.url, 'health']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: invalid response from the API: the health check answered with no status (a web page, or nothing): not the API\n',
    );
  });

  it('a 404 in FastAPI\'s form {"detail":"Not Found"}: no API at this address, exit 7 with the --base-url hint', async () => {
    const server = await answering(404, { detail: 'Not Found' });
    const r = await runMain(['--base-url', server.url, 'health']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: HTTP 404 for ${server.url}/health, and not from the API: no API answers at this address\n${BASE_URL_HINT}`,
    );
  });
});

describe('health: a status beside fields of other types, and a plain-text word that is not up', () => {
  it('{"status":"ok","timestamp":1717000000} is up (exit 0), said as ok', async () => {
    const server = await answering(200, { status: 'ok', timestamp: 1717000000 });
    const r = await runMain(['--base-url', server.url, 'health']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`ok (HTTP 200, 0 ms) ${server.url}\n`);
    const json = await runMain(['--base-url', server.url, 'health', '-f', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ status: 'ok', healthy: true, http_status: 200, latency_ms: 0 });
  });

  it('plain-text degraded: not up (exit 6), the word said', async () => {
    const server = await answering(200, 'degraded', 'text/plain');
    const r = await runMain(['--base-url', server.url, 'health']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe(`degraded (HTTP 200, 0 ms) ${server.url}\n`);
    expect(r.stderr).toBe("error: the API reports 'degraded' (HTTP 200)\n");
  });
});
