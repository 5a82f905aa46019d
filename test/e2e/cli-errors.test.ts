// API errors become one clear line, a hint and the documented exit code; the key never appears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, LIMITED_KEY, runAgainst, runCli, sandboxFor } from '../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor();
});
afterAll(() => sandbox.close());

describe('API errors', () => {
  it('an invalid key exits 3 without printing it', async () => {
    const key = 'dr_live_thisisnotavalidkeyatall0000000000000000';
    const r = await runCli(['--base-url', sandbox.url, 'feed'], { env: { RECALL_FEED_API_KEY: key } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: the API rejected the key: /);
    expect(r.stderr).not.toContain(key);
    expect(r.stdout).toBe('');
  });

  it('unauthorized sources exit 4 with the sources the key may use', async () => {
    const r = await runAgainst(sandbox, ['feed', '--sources', 'us_cpsc,safety_gate'], { env: { RECALL_FEED_API_KEY: LIMITED_KEY } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: .+\nhint: this key may use: us_cpsc, uk_opss\n$/);
    const unknown = await runAgainst(sandbox, ['feed', '--sources', 'us_fda']);
    expect(unknown.exitCode).toBe(4);
  });

  it('an unknown custom feed exits 4', async () => {
    const r = await runAgainst(sandbox, ['feed', '--custom', 'nope']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: /);
  });

  it('an unreachable API exits 6', async () => {
    const r = await runCli(['--base-url', 'http://127.0.0.1:9', '--retries', '0', 'feed'], { env: { RECALL_FEED_API_KEY: ALL_KEY } });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/^error: connection refused by 127\.0\.0\.1:9\n/);
  });

  it('--verbose prints one line per request, never the key', async () => {
    const r = await runAgainst(sandbox, ['-v', 'feed', '--max', '3']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^GET \/v1\/recalls\/feed\?limit=3 200 \d+ms minute-budget=\d+$/m);
    expect(r.stderr).not.toContain(ALL_KEY);
  });
});
