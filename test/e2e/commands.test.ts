// sources, health and config end to end; and the precedence flag > environment > profile > default.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, LIMITED_KEY, jsonLines, lines, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor();
});
afterAll(() => sandbox.close());

describe('sources', () => {
  it('lists the key\'s sources in every format', async () => {
    const jl = await runAgainst(sandbox, ['sources'], { env: { RECALL_FEED_API_KEY: LIMITED_KEY } });
    expect(jl.exitCode).toBe(0);
    expect(jsonLines(jl.stdout).map((s) => s.id)).toEqual(['us_cpsc', 'uk_opss']);
    const json = await runAgainst(sandbox, ['sources', '-f', 'json']);
    expect((JSON.parse(json.stdout) as { id: string }[]).map((s) => s.id)).toEqual([
      'us_cpsc',
      'safety_gate',
      'uk_opss',
      'rappel_conso',
      'rappel_conso_food',
    ]);
    const csv = await runAgainst(sandbox, ['sources', '-f', 'csv']);
    expect(lines(csv.stdout)[0]).toBe('id,name,description,official_url');
    expect(lines(csv.stdout)).toHaveLength(6);
    const table = await runAgainst(sandbox, ['sources'], { env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: '90' } });
    expect(lines(table.stdout)[0]).toMatch(/^id\s+name\s+description\s+official_url/);
    expect(table.stderr).toBe('5 data sources available to this key\n');
  });

  it('--columns: a name no source has is warned about, with the nearest field', async () => {
    const r = await runAgainst(sandbox, ['sources', '-f', 'csv', '--columns', 'id,nme']);
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout)).toEqual(['id,nme', 'us_cpsc,', 'safety_gate,', 'uk_opss,', 'rappel_conso,', 'rappel_conso_food,']);
    expect(r.stderr).toBe("warning: no record has the column 'nme' (left empty); did you mean name (for 'nme')?\n");
  });
});

describe('health', () => {
  it('exit 0 when healthy, 6 when unhealthy or unreachable, and needs no key', async () => {
    const ok = await runCli(['--base-url', sandbox.url, 'health']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/^healthy \(HTTP 200, \d+ ms, version [^)]+\) http:\/\/127\.0\.0\.1:\d+\n$/);
    const json = await runCli(['--base-url', sandbox.url, 'health', '-f', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ healthy: true, http_status: 200, status: 'healthy' });
    sandbox.setHealthy(false);
    try {
      const bad = await runCli(['--base-url', sandbox.url, 'health']);
      expect(bad.exitCode).toBe(6);
      expect(bad.stdout).toMatch(/^unhealthy \(HTTP 503/);
      expect(bad.stderr).toBe("error: the API reports 'unhealthy' (HTTP 503)\n");
    } finally {
      sandbox.setHealthy(true);
    }
    const down = await runCli(['--base-url', 'http://127.0.0.1:9', 'health']);
    expect(down.exitCode).toBe(6);
  });
});

describe('config', () => {
  it('stores the key from stdin in a 0600 file in a 0700 folder, and shows it masked', async () => {
    const dir = path.join(tempDir(), 'nested');
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    const set = await runCli(['config', 'set', 'api-key'], { env, input: `  ${ALL_KEY}  \n` });
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).not.toContain(ALL_KEY);
    const file = (await runCli(['config', 'path'], { env })).stdout.trim();
    expect(path.dirname(file)).toBe(dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toContain(ALL_KEY);
    const masked = `${ALL_KEY.slice(0, 8)}…${ALL_KEY.slice(-4)}`;
    expect((await runCli(['config', 'get', 'api-key'], { env })).stdout).toBe(`${masked}\n`);
    expect((await runCli(['config', 'list'], { env })).stdout).toBe(`api-key=${masked}\n`);
    expect((await runCli(['config', 'get', 'api-key', '--show-secrets'], { env })).stdout).toBe(`${ALL_KEY}\n`);
    // The stored key works.
    const feed = await runCli(['--base-url', sandbox.url, 'feed', '--max', '1'], { env });
    expect(feed.exitCode).toBe(0);
    await runCli(['config', 'unset', 'api-key'], { env });
    expect((await runCli(['config', 'list'], { env })).stdout).toBe('');
  });

  it('keeps profiles apart and validates keys and values', async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir() };
    expect((await runCli(['--profile', 'prod', 'config', 'set', 'format', 'csv'], { env })).exitCode).toBe(0);
    expect((await runCli(['config', 'set', 'page-size', '100'], { env })).exitCode).toBe(0);
    expect((await runCli(['--profile', 'prod', 'config', 'list'], { env })).stdout).toBe('format=csv\n');
    expect((await runCli(['config', 'list'], { env, })).stdout).toBe('page-size=100\n');
    const badValue = await runCli(['config', 'set', 'format', 'xml'], { env });
    expect(badValue.exitCode).toBe(2);
    expect(badValue.stderr).toMatch(/^error: .*format/);
    const badKey = await runCli(['config', 'set', 'colour', 'red'], { env });
    expect(badKey.exitCode).toBe(2);
    const empty = await runCli(['config', 'set', 'api-key'], { env, input: '  \n' });
    expect(empty.exitCode).toBe(2);
  });
});

describe('precedence: flag > environment > profile > default', () => {
  it('takes the key and the format from the most specific place', async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir() };
    await runCli(['config', 'set', 'api-key'], { env, input: 'dr_test_profilekey000000000000000000000000000000' });
    await runCli(['config', 'set', 'base-url', sandbox.url], { env });
    await runCli(['config', 'set', 'format', 'csv'], { env });
    sandbox.clearRequests();
    // Profile only: the profile's (invalid) key is used -> 3; its format and base URL apply.
    const profile = await runCli(['feed', '--max', '1'], { env });
    expect(profile.exitCode).toBe(3);
    expect(sandbox.requests().at(-1)?.key).toBe('invalid');
    // Environment beats the profile.
    const fromEnv = await runCli(['feed', '--max', '1'], { env: { ...env, RECALL_FEED_API_KEY: LIMITED_KEY } });
    expect(fromEnv.exitCode).toBe(0);
    expect(sandbox.requests().at(-1)?.key).toBe(DEMO_KEYS.limited.name);
    expect(lines(fromEnv.stdout)[0]!.startsWith('id,data_source')).toBe(true);
    // DEEPRECALL_API_KEY works too, after RECALL_FEED_API_KEY.
    const deep = await runCli(['feed', '--max', '1'], { env: { ...env, DEEPRECALL_API_KEY: ALL_KEY } });
    expect(deep.exitCode).toBe(0);
    expect(sandbox.requests().at(-1)?.key).toBe(DEMO_KEYS.all.name);
    // The flag beats both; -f beats the profile's format.
    const flag = await runCli(['--api-key', ALL_KEY, 'feed', '--max', '1', '-f', 'jsonl'], {
      env: { ...env, RECALL_FEED_API_KEY: LIMITED_KEY },
    });
    expect(flag.exitCode).toBe(0);
    expect(sandbox.requests().at(-1)?.key).toBe(DEMO_KEYS.all.name);
    expect(jsonLines(flag.stdout)).toHaveLength(1);
    // RECALL_FEED_BASE_URL beats the profile's base-url.
    const elsewhere = await runCli(['feed', '--max', '1'], {
      env: { ...env, RECALL_FEED_API_KEY: ALL_KEY, RECALL_FEED_BASE_URL: 'http://127.0.0.1:9', },
    });
    expect(elsewhere.exitCode).toBe(6);
  });

  it('RECALL_FEED_PROFILE selects the profile', async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir() };
    await runCli(['--profile', 'work', 'config', 'set', 'api-key'], { env, input: ALL_KEY });
    await runCli(['--profile', 'work', 'config', 'set', 'base-url', sandbox.url], { env });
    const r = await runCli(['feed', '--max', '2'], { env: { ...env, RECALL_FEED_PROFILE: 'work' } });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout)).toHaveLength(2);
  });
});
