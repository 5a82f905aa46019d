// `health`'s verdict is the client's own: a body claiming `healthy: true` does not overwrite it; and an answer that is
// not the API's (a redirect, a 404 from a wrong --base-url) is exit 7 with the --base-url hint, as for every command.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const BASE_URL_HINT =
  "hint: check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io\n";

/** A server answering every request with `status` and `body` (JSON unless a string). */
async function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  return handlerServer((_req, res) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const type = typeof body === 'string' ? 'text/html' : 'application/json';
    res.writeHead(status, { 'content-type': type, ...headers }).end(text);
  });
}

describe('health -f json: the server body cannot overwrite the verdict', () => {
  it('a 503 whose body says healthy, HTTP 200 and 1 ms: healthy false, the real status and latency, exit 6', async () => {
    const server = await answering(503, { status: 'unhealthy', healthy: true, http_status: 200, latency_ms: 1 });
    for (const format of ['json', 'jsonl']) {
      const r = await runMain(['--base-url', server.url, 'health', '-f', format]);
      expect(r.code).toBe(6);
      // The fake clock does not move during the request: the latency measured is 0 ms.
      expect(JSON.parse(r.stdout)).toEqual({ status: 'unhealthy', healthy: false, http_status: 503, latency_ms: 0 });
      expect(r.stderr).toBe("error: the API reports 'unhealthy' (HTTP 503)\n");
    }
  });

  it('a 200 whose status is degraded but says healthy: true is unhealthy, in JSON and on the line', async () => {
    const server = await answering(200, { status: 'degraded', healthy: true });
    const json = await runMain(['--base-url', server.url, 'health', '-f', 'json']);
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout)).toEqual({ status: 'degraded', healthy: false, http_status: 200, latency_ms: 0 });
    const line = await runMain(['--base-url', server.url, 'health']);
    expect(line.code).toBe(6);
    expect(line.stdout).toBe(`degraded (HTTP 200, 0 ms) ${server.url}\n`);
    expect(line.stderr).toBe("error: the API reports 'degraded' (HTTP 200)\n");
  });
});

describe('health against an address that is not the API', () => {
  it('a 404 page: exit 7, not the API, the --base-url hint, nothing on stdout or in the -o file', async () => {
    const server = await answering(404, '<html>Not Found</html>');
    const file = path.join(tempDir(), 'health.json');
    for (const args of [['health'], ['health', '-f', 'json'], ['health', '-o', file]]) {
      const r = await runMain(['--base-url', `${server.url}/wrong`, ...args]);
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: HTTP 404 for ${server.url}/wrong/health, and not from the API: no API answers at this address\n${BASE_URL_HINT}`,
      );
    }
    expect(existsSync(file)).toBe(false);
  });

  it('a 404 whose JSON body looks like a status is still not the API', async () => {
    const server = await answering(404, { status: 'error', message: 'Not Found' });
    const r = await runMain(['--base-url', server.url, 'health', '-f', 'json']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: HTTP 404 for ${server.url}/health, and not from the API: no API answers at this address\n${BASE_URL_HINT}`,
    );
  });

  it('a redirect is not followed: exit 7 naming where it pointed, as for every command, one request', async () => {
    const server = await answering(301, '', { location: 'https://elsewhere.example/health' });
    const r = await runMain(['--base-url', server.url, 'health']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: HTTP 301: a redirect to https://elsewhere.example/health, not followed\n' +
        'hint: the API may have moved to https://elsewhere.example/health: if you trust that address, pass its root as --base-url\n',
    );
    expect(server.requests.map((q) => q.url)).toEqual(['/health']);
  });
});
