// Where each setting comes from, in process: flag > environment > profile > default; profiles kept apart.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, LIMITED_KEY, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 20 });
});

/** A fresh config dir, and `recall-feed` run with it. */
function withConfig() {
  const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-config-') };
  const run = (args: string[], more: { env?: Record<string, string>; stdin?: string } = {}) =>
    runMain(args, { env: { ...env, ...more.env }, stdin: more.stdin });
  return { env, run };
}

describe('precedence: flag > environment > profile > default', () => {
  it('takes the key and the format from the most specific place', async () => {
    const { run } = withConfig();
    expect(
      (await run(['config', 'set', 'api-key'], { stdin: 'dr_test_profilekey000000000000000000000000000000' })).code,
    ).toBe(0);
    expect((await run(['config', 'set', 'base-url', sandbox.url])).code).toBe(0);
    expect((await run(['config', 'set', 'format', 'csv'])).code).toBe(0);
    sandbox.clearRequests();
    // Profile only: the profile's (invalid) key is used -> 3; its format and base URL apply.
    const profile = await run(['feed', '--max', '1']);
    expect(profile.code).toBe(3);
    expect(sandbox.requests().at(-1)?.key).toBe('invalid');
    // Environment beats the profile.
    const fromEnv = await run(['feed', '--max', '1'], { env: { RECALL_FEED_API_KEY: LIMITED_KEY } });
    expect(fromEnv.code).toBe(0);
    expect(sandbox.requests().at(-1)?.key).toBe(DEMO_KEYS.limited.name);
    expect(lines(fromEnv.stdout)[0]!.startsWith('id,data_source')).toBe(true);
    // DEEPRECALL_API_KEY works too, after RECALL_FEED_API_KEY.
    const deep = await run(['feed', '--max', '1'], { env: { DEEPRECALL_API_KEY: ALL_KEY } });
    expect(deep.code).toBe(0);
    expect(sandbox.requests().at(-1)?.key).toBe(DEMO_KEYS.all.name);
    const both = await run(['feed', '--max', '1'], {
      env: { RECALL_FEED_API_KEY: LIMITED_KEY, DEEPRECALL_API_KEY: ALL_KEY },
    });
    expect(both.code).toBe(0);
    expect(sandbox.requests().at(-1)?.key).toBe(DEMO_KEYS.limited.name);
    // The flag beats both; -f beats the profile's format.
    const flag = await run(['--api-key', ALL_KEY, 'feed', '--max', '1', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: LIMITED_KEY },
    });
    expect(flag.code).toBe(0);
    expect(sandbox.requests().at(-1)?.key).toBe(DEMO_KEYS.all.name);
    expect(jsonLines(flag.stdout)).toHaveLength(1);
    // RECALL_FEED_BASE_URL beats the profile's base-url: nothing listens there, so no request reaches the sandbox.
    const before = sandbox.requests().length;
    const elsewhere = await run(['--retries', '0', 'feed', '--max', '1'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY, RECALL_FEED_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(elsewhere.code).toBe(6);
    expect(elsewhere.stderr).toMatch(/connection refused by 127\.0\.0\.1:9/);
    expect(sandbox.requests()).toHaveLength(before);
    // And --base-url beats RECALL_FEED_BASE_URL.
    const back = await run(['--base-url', sandbox.url, 'feed', '--max', '1'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY, RECALL_FEED_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(back.code).toBe(0);
  });

  it('RECALL_FEED_PROFILE selects the profile, and --profile beats it', async () => {
    const { run } = withConfig();
    await run(['--profile', 'work', 'config', 'set', 'api-key'], { stdin: ALL_KEY });
    await run(['--profile', 'work', 'config', 'set', 'base-url', sandbox.url]);
    const r = await run(['feed', '--max', '2'], { env: { RECALL_FEED_PROFILE: 'work' } });
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toHaveLength(2);
    // The default profile has no key.
    const flag = await run(['--profile', 'default', 'feed', '--max', '2'], { env: { RECALL_FEED_PROFILE: 'work' } });
    expect(flag.code).toBe(3);
    expect(flag.stderr).toMatch(/^error: no API key for profile 'default'/);
  });
});

describe('config', () => {
  it('keeps profiles apart and validates keys and values', async () => {
    const { run } = withConfig();
    expect((await run(['--profile', 'prod', 'config', 'set', 'format', 'csv'])).code).toBe(0);
    expect((await run(['config', 'set', 'page-size', '100'])).code).toBe(0);
    expect((await run(['--profile', 'prod', 'config', 'list'])).stdout).toBe('format=csv\n');
    expect((await run(['config', 'list'])).stdout).toBe('page-size=100\n');
    const badValue = await run(['config', 'set', 'format', 'xml']);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toMatch(/^error: .*format/);
    const badKey = await run(['config', 'set', 'colour', 'red']);
    expect(badKey.code).toBe(2);
    const empty = await run(['config', 'set', 'api-key'], { stdin: '  \n' });
    expect(empty.code).toBe(2);
    expect((await run(['config', 'list'])).stdout).toBe('page-size=100\n');
  });

  it('masks the key unless asked, and unset removes it', async () => {
    const { run } = withConfig();
    const set = await run(['config', 'set', 'api-key'], { stdin: `  ${ALL_KEY}  \n` });
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).not.toContain(ALL_KEY);
    const masked = `${ALL_KEY.slice(0, 8)}…${ALL_KEY.slice(-4)}`;
    expect((await run(['config', 'get', 'api-key'])).stdout).toBe(`${masked}\n`);
    expect((await run(['config', 'list'])).stdout).toBe(`api-key=${masked}\n`);
    expect((await run(['config', 'get', 'api-key', '--show-secrets'])).stdout).toBe(`${ALL_KEY}\n`);
    expect((await run(['config', 'unset', 'api-key'])).code).toBe(0);
    expect((await run(['config', 'list'])).stdout).toBe('');
  });

  it('reads the monitor URL from stdin and shows only its host: its path is the token', async () => {
    const { run } = withConfig();
    const url = 'https://hc-ping.example/5b1d2f0e-token-9c1a';
    const set = await run(['config', 'set', 'monitor'], { stdin: `${url}\n` });
    expect(set.code).toBe(0);
    expect(set.stderr).not.toContain('token');
    expect((await run(['config', 'get', 'monitor'])).stdout).toBe('https://hc-ping.example/…\n');
    expect((await run(['config', 'list'])).stdout).toBe('monitor=https://hc-ping.example/…\n');
    expect((await run(['config', 'get', 'monitor', '--show-secrets'])).stdout).toBe(`${url}\n`);
  });

  it('reads the key without echo on a terminal', async () => {
    const { env, run } = withConfig();
    const set = await runMain(['config', 'set', 'api-key'], {
      env,
      stdin: `${ALL_KEY}\n`,
      stdinIsTTY: true,
      stderrIsTTY: true,
    });
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/^API key: \n/);
    expect(set.stderr).not.toContain(ALL_KEY);
    expect((await run(['config', 'get', 'api-key', '--show-secrets'])).stdout).toBe(`${ALL_KEY}\n`);
  });
});
