// `doctor` with a plain-http base URL to another machine: the report still comes out, the key check fails saying
// why, and the key never travels (only the keyless GET /health does).
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { testProxy } from '../helpers/test-proxy.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

const parse = (stdout: string) => JSON.parse(stdout) as { status: string; checks: Check[] };
const INSECURE_HINT = 'use an https base URL, or pass --allow-insecure-http if you really mean it';

describe('doctor over plain http to another host', () => {
  it('0.0.0.0 is no loopback name: the report, a failed key check, exit 16, and only the keyless /health sent', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const port = new URL(sandbox.url).port;
    const r = await runMainAgainst(sandbox, ['--base-url', `http://0.0.0.0:${port}`, 'doctor', '-f', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(16);
    const report = parse(r.stdout);
    expect(report.status).toBe('fail');
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([
      ['config', 'ok'],
      ['proxy', 'ok'],
      ['api', 'ok'],
      ['clock', 'ok'],
      ['key', 'fail'],
      ['quota', 'skip'],
    ]);
    expect(report.checks[4]).toEqual({
      name: 'key',
      status: 'fail',
      detail: `not sent: refusing to send the API key over plain http to 0.0.0.0:${port}`,
      hint: INSECURE_HINT,
    });
    expect(report.checks[5]?.detail).toBe('the key was not sent');
    expect(sandbox.requests().map((q) => [q.path, q.key])).toEqual([['/health', 'missing']]);
    expect(r.stdout + r.stderr).not.toContain(ALL_KEY);
  });

  it('a named host through a proxy: the proxy sees /health alone; --allow-insecure-http sends the key', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const proxy = await testProxy({ forwardTo: sandbox.url });
    const env = { HTTP_PROXY: proxy.url };
    const args = ['--base-url', 'http://api.example.test', 'doctor', '-f', 'json'];
    const r = await runMainAgainst(sandbox, args, { env });
    expect(r.code).toBe(16);
    const key = parse(r.stdout).checks.find((c) => c.name === 'key');
    expect(key?.detail).toBe('not sent: refusing to send the API key over plain http to api.example.test');
    expect(proxy.requests.map((q) => q.target)).toEqual(['http://api.example.test/health']);
    expect(sandbox.requests().map((q) => q.key)).toEqual(['missing']);

    // Asked for, the key goes: the same setup passes.
    const allowed = await runMainAgainst(sandbox, ['--allow-insecure-http', ...args], { env });
    expect(parse(allowed.stdout).checks.find((c) => c.name === 'key')?.status).toBe('ok');
    expect(allowed.code).toBe(0);
  });

  it('127.0.0.1 mapped into IPv6 is this machine: the key goes over plain http, every check ok', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const port = new URL(sandbox.url).port;
    // URL() writes [::ffff:127.0.0.1] as [::ffff:7f00:1]; the sandbox listens on 127.0.0.1, which that reaches.
    const r = await runMainAgainst(sandbox, [
      '--base-url',
      `http://[::ffff:127.0.0.1]:${port}`,
      'doctor',
      '-f',
      'json',
    ]);
    expect(r.stderr).toBe('');
    const report = parse(r.stdout);
    expect(report.checks.find((c) => c.name === 'key')).toMatchObject({ status: 'ok' });
    expect(report.checks.filter((c) => c.status !== 'ok' && c.status !== 'skip')).toEqual([]);
    expect(sandbox.requests().map((q) => q.path)).toEqual(['/health', '/v1/recalls/sources', '/v1/recalls/feed']);
    expect(r.code).toBe(0);
  });
});
