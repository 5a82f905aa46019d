// A 404 on any path but a custom feed's means the --base-url is wrong (exit 7, the --base-url hint, the address named),
// whatever its body: the API's own envelope (`No such endpoint`), FastAPI's `Not Found`, a web page. Only under
// /v1/recalls/feed/<name> is a 404 the API saying that feed is unknown (exit 4).
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';

const BASE_URL_HINT =
  "hint: check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io\n";

const KEY = { RECALL_FEED_API_KEY: ALL_KEY };

describe('a --base-url with the API path already in it (the API answers its own not_found)', () => {
  for (const [command, endpoint] of [
    [['feed', '-f', 'jsonl'], '/v1/v1/recalls/feed'],
    [['sources', '-f', 'json'], '/v1/v1/recalls/sources'],
  ] as const) {
    it(`${command[0]} exits 7 naming the address, with the --base-url hint`, async () => {
      const sandbox = await sandboxFor();
      const r = await runMain(['--base-url', `${sandbox.url}/v1`, ...command], { env: KEY });
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: HTTP 404 for ${sandbox.url}${endpoint}: no API endpoint at this address ` +
          `(the server said: No such endpoint: ${endpoint})\n${BASE_URL_HINT}`,
      );
      expect(r.code).toBe(7);
    });
  }

  it('an unknown custom feed at the right address is still the API saying so (exit 4)', async () => {
    const sandbox = await sandboxFor();
    const r = await runMain(['--base-url', sandbox.url, 'feed', '--custom', 'nosuchfeed', '-f', 'jsonl'], { env: KEY });
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: Unknown custom feed: nosuchfeed');
    expect(r.code).toBe(4);
  });
});

describe('a server answering every path 404 in the API envelope or FastAPI form', () => {
  const envelope = { detail: { error: 'not_found', message: 'Nothing here', help: 'Read the docs.' } };
  for (const [form, body, said] of [
    ['the API envelope', envelope, ' (the server said: Nothing here)'],
    ['FastAPI "Not Found"', { detail: 'Not Found' }, ''],
    ['FastAPI text', { detail: 'Gone fishing' }, ' (the server said: Gone fishing)'],
  ] as const) {
    it(`${form}: sources is a wrong address (exit 7), sent once`, async () => {
      const server = await handlerServer((_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
      const r = await runMain(['--base-url', server.url, 'sources', '-f', 'json'], { env: KEY });
      const address = `${server.url}/v1/recalls/sources`;
      const message = said
        ? `HTTP 404 for ${address}: no API endpoint at this address${said}`
        : `HTTP 404 for ${address}, and not from the API: no API answers at this address`;
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: ${message}\n${BASE_URL_HINT}`);
      expect(r.code).toBe(7);
      expect(server.requests.map((q) => q.url)).toEqual(['/v1/recalls/sources']);
    });
  }

  it("under a custom feed's path the API envelope is its answer (exit 4, its words)", async () => {
    const server = await handlerServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
    });
    const r = await runMain(['--base-url', server.url, 'feed', '--custom', 'shein', '-f', 'jsonl'], { env: KEY });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: Nothing here\nhint: Read the docs.\n');
    expect(r.code).toBe(4);
  });
});
