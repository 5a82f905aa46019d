// `doctor` when the key's sources call fails: only a 401 says the key was refused; a spent monthly quota fails the
// quota check with its reset; a 403, a 5xx, a redirect, a body that is not the API's and a broken connection are
// each named for what they are (permission, api, network) with a hint of their own, and the key is left unknown.
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { GENEROUS_LIMITS, sandboxFor } from '../helpers/sandbox.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

const checksOf = (stdout: string): Check[] => (JSON.parse(stdout) as { checks: Check[] }).checks;
const named = (checks: Check[], name: string) => checks.filter((c) => c.name === name);

const STORE_KEY = 'store a key with `recall-feed config set api-key` (reads stdin)';

/** An API whose /health is fine and whose sources call answers as `sources` does. */
async function apiAnswering(sources: (res: http.ServerResponse, req: http.IncomingMessage) => void) {
  const server = await handlerServer((req, res) => {
    if (req.url === '/health') {
      res.setHeader('content-type', 'application/json');
      res.end('{"status":"healthy","version":"test"}');
      return;
    }
    sources(res, req);
  });
  return server;
}

/** doctor against `url` with a well-formed key, one attempt per request (no retries to wait through). */
function doctorAt(url: string) {
  return runMain(['--base-url', url, '--retries', '0', 'doctor', '-f', 'json'], {
    env: { RECALL_FEED_API_KEY: 'rf_live_0123456789abcdef' },
  });
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};

describe('doctor: the sources call failing', () => {
  it('a key the API does not know (401) is refused, with the hint to store one; the quota is skipped', async () => {
    const api = await apiAnswering((res) =>
      json(res, 401, { detail: { error: 'invalid_api_key', message: 'Invalid API key' } }),
    );
    const r = await doctorAt(api.url);
    expect(r.code).toBe(16);
    const checks = checksOf(r.stdout);
    expect(named(checks, 'key')).toEqual([
      { name: 'key', status: 'fail', detail: 'refused: Invalid API key', hint: STORE_KEY },
    ]);
    expect(named(checks, 'quota')).toEqual([{ name: 'quota', status: 'skip', detail: 'the key was refused' }]);
  });

  it('a spent monthly quota fails the quota check with its reset; the key was accepted (it passed the key check)', async () => {
    const sandbox = await sandboxFor({
      recordCount: 5,
      monthlyUsage: 50_000,
      rateLimits: { ...GENEROUS_LIMITS, month: { limit: 50_000 } },
    });
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json']);
    expect(r.code).toBe(16);
    const checks = checksOf(r.stdout);
    // The sandbox resets the month at 00:00 UTC on the 1st of the next month (docs/api.md).
    const now = new Date();
    const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    const [quota] = named(checks, 'quota');
    expect(quota?.status).toBe('fail');
    expect(quota?.detail).toMatch(/^the monthly quota is spent: .+; it resets on /);
    expect(quota?.detail.endsWith(`it resets on ${reset}`)).toBe(true);
    expect(quota?.hint).toBe('ask the operator for a higher quota, or wait for the reset');
    expect(named(checks, 'key')).toEqual([
      { name: 'key', status: 'ok', detail: 'accepted (env); its sources not listed: the monthly quota is spent' },
    ]);
    expect(r.stdout).not.toContain('refused');
    expect(r.stdout).not.toContain('store a key');
    // One sources call, no feed request after it: it would be refused the same way.
    expect(
      sandbox
        .requests()
        .map((q) => q.path)
        .filter((p) => p.startsWith('/v1/')),
    ).toEqual(['/v1/recalls/sources']);
  });

  it('a 403 is a permission failure with its own hint; the key is unknown, not refused', async () => {
    const api = await apiAnswering((res) =>
      json(res, 403, { detail: { error: 'forbidden', message: 'This key may not list sources' } }),
    );
    const r = await doctorAt(api.url);
    expect(r.code).toBe(16);
    const checks = checksOf(r.stdout);
    expect(named(checks, 'permission')).toEqual([
      {
        name: 'permission',
        status: 'fail',
        detail: 'the sources call: This key may not list sources',
        hint: 'ask the operator what the key may use',
      },
    ]);
    expect(named(checks, 'key')).toEqual([
      { name: 'key', status: 'skip', detail: 'unknown: the sources call failed (see the permission check)' },
    ]);
    expect(named(checks, 'quota')).toEqual([{ name: 'quota', status: 'skip', detail: 'the sources call failed' }]);
  });

  it.each([
    [
      'a 503',
      (res: http.ServerResponse) => {
        res.statusCode = 503;
        res.end('<html>down</html>');
      },
      'the sources call: the API is unavailable: HTTP 503 from the API',
      'the API reports trouble; try again later',
    ],
    [
      'a redirect',
      (res: http.ServerResponse) => {
        res.statusCode = 302;
        res.setHeader('location', 'https://elsewhere.example/v1/recalls/sources');
        res.end();
      },
      'the sources call: HTTP 302: a redirect to https://elsewhere.example/v1/recalls/sources, not followed',
      'the API may have moved to https://elsewhere.example/v1/recalls/sources: if you trust that address, pass its root as --base-url',
    ],
    [
      'a body that is not JSON',
      (res: http.ServerResponse) => {
        res.setHeader('content-type', 'text/html');
        res.end('<html>a login page</html>');
      },
      /^the sources call: invalid response from the API: /,
      "the answer is not the API's: check --base-url, and any proxy or gateway in between",
    ],
  ])('%s is an api failure with its own hint; the key is unknown', async (_what, answer, detail, hint) => {
    const api = await apiAnswering(answer);
    const r = await doctorAt(api.url);
    expect(r.code).toBe(16);
    const checks = checksOf(r.stdout);
    const apiChecks = named(checks, 'api');
    // The first: GET /health answered; the second: the sources call.
    expect(apiChecks.map((c) => c.status)).toEqual(['ok', 'fail']);
    expect(apiChecks[1]?.detail).toMatch(detail);
    expect(apiChecks[1]?.hint).toBe(hint);
    expect(named(checks, 'key')).toEqual([
      { name: 'key', status: 'skip', detail: 'unknown: the sources call failed (see the api check)' },
    ]);
    expect(named(checks, 'quota')).toEqual([{ name: 'quota', status: 'skip', detail: 'the sources call failed' }]);
    expect(r.stdout).not.toContain('store a key');
  });

  it('a connection cut on the sources call is a network failure; the key is unknown', async () => {
    const api = await apiAnswering((_res, req) => req.socket.destroy());
    const r = await doctorAt(api.url);
    expect(r.code).toBe(16);
    const checks = checksOf(r.stdout);
    const [network] = named(checks, 'network');
    expect(network?.status).toBe('fail');
    expect(network?.detail).toMatch(/^the sources call: /);
    expect(network?.hint).toBe('check the network, and the proxy if one is set, then run doctor again');
    expect(named(checks, 'key')).toEqual([
      { name: 'key', status: 'skip', detail: 'unknown: the sources call failed (see the network check)' },
    ]);
    expect(r.stdout).not.toContain('store a key');
  });
});
