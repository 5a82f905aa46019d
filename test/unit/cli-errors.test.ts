// API errors, in process: one clear line, a hint and the documented exit code; the key never appears.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS } from '../../src/api/retry.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, LIMITED_KEY, sandboxFor } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 20 });
});

// Port 9 (discard) has no listener on loopback: connection refused at once.
const UNREACHABLE = 'http://127.0.0.1:9';

describe('API errors', () => {
  it('an invalid key exits 3 without printing it', async () => {
    const key = 'dr_live_thisisnotavalidkeyatall0000000000000000';
    const r = await runMain(['--base-url', sandbox.url, 'feed'], { env: { RECALL_FEED_API_KEY: key } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: the API rejected the key: /);
    expect(r.stderr).not.toContain(key);
    expect(r.stdout).toBe('');
  });

  it('unauthorized sources exit 4 with the sources the key may use', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '--sources', 'us_cpsc,safety_gate'], {
      env: { RECALL_FEED_API_KEY: LIMITED_KEY },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: .+\nhint: this key may use: us_cpsc, uk_opss\n$/);
    const unknown = await runMainAgainst(sandbox, ['feed', '--sources', 'us_fda']);
    expect(unknown.code).toBe(4);
  });

  it('an unknown custom feed exits 4', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '--custom', 'nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: /);
  });

  it('an unreachable API exits 6 after the default 5 retries, backing off each time', async () => {
    const r = await runMain(['--base-url', UNREACHABLE, 'feed'], { env: { RECALL_FEED_API_KEY: ALL_KEY } });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: connection refused by 127\.0\.0\.1:9$/m);
    expect(
      r.stderr.match(/^recall-feed: connection refused by 127\.0\.0\.1:9; retry \d, resuming in \d+ s$/gm),
    ).toHaveLength(5);
    expect(r.sleeps).toHaveLength(5);
    // Full jitter: each wait is uniform in [0, 500 ms x 2^(retry - 1)), so one of 0 ms is a right answer (asking
    // for more made this test fail about once in 250 runs); all five at 0 would not be backing off.
    r.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** i));
    });
    expect(r.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const once = await runMain(['--base-url', UNREACHABLE, '--retries', '0', 'feed'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(once.code).toBe(6);
    expect(once.stderr).toMatch(/^error: connection refused by 127\.0\.0\.1:9\n/);
    expect(once.sleeps).toEqual([]);
  });

  it('--verbose prints one line per request, never the key', async () => {
    const r = await runMainAgainst(sandbox, ['-v', 'feed', '--max', '3']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^GET \/v1\/recalls\/feed\?limit=3 200 \d+ms minute-budget=\d+$/m);
    expect(r.stderr).not.toContain(ALL_KEY);
  });
});

describe('health', () => {
  it('exit 0 when healthy, 6 when unhealthy or unreachable, and needs no key', async () => {
    const ok = await runMain(['--base-url', sandbox.url, 'health']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^healthy \(HTTP 200, \d+ ms, version [^)]+\) http:\/\/127\.0\.0\.1:\d+\n$/);
    const json = await runMain(['--base-url', sandbox.url, 'health', '-f', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ healthy: true, http_status: 200, status: 'healthy' });
    sandbox.setHealthy(false);
    try {
      const bad = await runMain(['--base-url', sandbox.url, 'health']);
      expect(bad.code).toBe(6);
      expect(bad.stdout).toMatch(/^unhealthy \(HTTP 503/);
      expect(bad.stderr).toBe("error: the API reports 'unhealthy' (HTTP 503)\n");
    } finally {
      sandbox.setHealthy(true);
    }
    const down = await runMain(['--base-url', UNREACHABLE, 'health']);
    expect(down.code).toBe(6);
  });
});
