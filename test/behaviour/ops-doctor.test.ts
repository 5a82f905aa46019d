// `doctor` end to end in process against the sandbox: a good setup, warnings, a wrong key, no API, a damaged archive.
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { handlerServer } from '../helpers/handler-server.js';
import { ENGINES } from '../helpers/postgres.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, GENEROUS_LIMITS, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { smtpServer } from '../helpers/smtp.js';
import { closedPort, testProxy } from '../helpers/test-proxy.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

function parse(stdout: string): { status: string; checks: Check[] } {
  return JSON.parse(stdout) as { status: string; checks: Check[] };
}

const byName = (checks: Check[], name: string) => checks.find((c) => c.name === name);

describe('doctor', () => {
  it('a good setup: every check ok, exit 0; the archive, its cases and its last sync are named', async () => {
    const sandbox = await sandboxFor({ recordCount: 50, seed: 4 });
    const db = path.join(tempDir('rf-doctor-'), 'recalls.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    const state = path.join(path.dirname(db), 'seen.json');
    const r = await runMainAgainst(sandbox, ['doctor', '--db', db, '--state', state, '--every', '1h', '-f', 'json']);
    const report = parse(r.stdout);
    expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(r.code).toBe(0);
    expect(report.status).toBe('ok');
    expect(report.checks.map((c) => c.name)).toEqual([
      'config',
      'proxy',
      'api',
      'clock',
      'key',
      'quota',
      'archive',
      'cases',
      'sync all sources',
      'outbox',
      `state ${state}`,
    ]);
    expect(byName(report.checks, 'key')?.detail).toMatch(/^accepted \(env\); may use \d+: /);
    expect(byName(report.checks, 'quota')?.detail).toMatch(
      /credits left this month; every 1h until the reset: \d+ runs × 1 request/,
    );
    // Two requests with the key: one sources call, one feed record for the quota.
    const sent = sandbox.requests().filter((q) => q.path !== '/health');
    expect(sent.slice(-2).map((q) => q.path)).toEqual(['/v1/recalls/sources', '/v1/recalls/feed']);
    // Never the key, in any output.
    // The key runMainAgainst puts in the run's env (process.env has none: the old check could not fail).
    expect(r.stdout + r.stderr).not.toContain(ALL_KEY);
  });

  it('warnings only: a rhythm the monthly quota cannot pay for exits 15 and says so', async () => {
    const sandbox = await sandboxFor({ recordCount: 10, rateLimits: { ...GENEROUS_LIMITS, month: { limit: 50 } } });
    const r = await runMainAgainst(sandbox, ['doctor', '--every', '1m', '-f', 'json']);
    expect(r.code).toBe(15);
    const quota = byName(parse(r.stdout).checks, 'quota');
    expect(quota?.status).toBe('warn');
    expect(quota?.hint).toMatch(/run less often/);
  });

  it('an --every that is no duration, or none at all, is a usage error (exit 2) before any request', async () => {
    const sandbox = await sandboxFor({ recordCount: 10 });
    for (const every of ['soon', '0m']) {
      const r = await runMainAgainst(sandbox, ['doctor', '--every', every, '-f', 'json']);
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toContain(`--every must be a duration such as 15m or 1h, not '${every}'`);
    }
    expect(sandbox.requests()).toEqual([]);
  });

  it('a wrong key fails the key check (exit 16) and never prints the key', async () => {
    const sandbox = await sandboxFor({ recordCount: 10 });
    const key = 'rf_wrong_key_0123456789';
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env: { RECALL_FEED_API_KEY: key } });
    expect(r.code).toBe(16);
    const report = parse(r.stdout);
    expect(report.status).toBe('fail');
    expect(byName(report.checks, 'key')?.status).toBe('fail');
    expect(byName(report.checks, 'quota')?.status).toBe('skip');
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it('an unreachable API fails the api check (exit 16); the key and quota are skipped, nothing else is tried', async () => {
    const port = await closedPort();
    const r = await runMain(['--base-url', `http://127.0.0.1:${port}`, 'doctor', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: 'rf_any_key_123' },
    });
    expect(r.code).toBe(16);
    const checks = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Check);
    expect(byName(checks, 'api')).toMatchObject({ status: 'fail' });
    expect(byName(checks, 'api')?.detail).toContain(`http://127.0.0.1:${port} not reached`);
    expect(byName(checks, 'key')?.status).toBe('skip');
  });

  it('a damaged archive fails the archive check (exit 16) with the restore hint', async () => {
    const sandbox = await sandboxFor({ recordCount: 300, seed: 5 });
    const db = path.join(tempDir('rf-doctor-'), 'recalls.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    expect(existsSync(`${db}-wal`) && statSync(`${db}-wal`).size > 0).toBe(false);
    // Garbage over every page after the first: the header still says SQLite, the tables do not hold.
    const size = statSync(db).size;
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(size - 4096, 0x5a), 0, size - 4096, 4096);
    closeSync(fd);
    const r = await runMainAgainst(sandbox, ['doctor', '--db', db, '-f', 'json']);
    expect(r.code).toBe(16);
    const archive = parse(r.stdout).checks.filter((c) => c.name === 'archive');
    expect(archive.at(-1)?.status).toBe('fail');
    expect(archive.at(-1)?.hint).toMatch(/restore it from a backup/);
  });

  it('state and lock files named by flags: deliveries still owed warn (exit 15), a free lock is ok, a foreign file fails', async () => {
    const sandbox = await sandboxFor({ recordCount: 4, seed: 6 });
    const dir = tempDir('rf-doctor-');
    const state = path.join(dir, 'seen.json');
    const dead = `http://127.0.0.1:${await closedPort()}/hook`;
    const fed = await runMainAgainst(sandbox, ['feed', '--state', state, '-f', 'jsonl', '--webhook', dead]);
    expect(fed.stdout.trim().split('\n')).toHaveLength(4);
    const r = await runMainAgainst(sandbox, ['doctor', '--state', state, '--lock', state, '-f', 'json']);
    expect(r.code).toBe(15);
    const checks = parse(r.stdout).checks;
    expect(byName(checks, `state ${state}`)).toMatchObject({
      status: 'warn',
      detail: '4 ids remembered, 4 recalls with deliveries still owed',
    });
    expect(byName(checks, `lock ${state}`)).toMatchObject({ status: 'ok', detail: 'free' });
    // A killed run's lock, 30 s untouched: stale for a run (10 s), so for doctor too; one just refreshed is held.
    mkdirSync(`${state}.lock`);
    const lockAt = (agoMs: number) =>
      utimesSync(`${state}.lock`, new Date(Date.now() - agoMs), new Date(Date.now() - agoMs));
    lockAt(30_000);
    const stale = await runMainAgainst(sandbox, ['doctor', '--lock', state, '-f', 'json']);
    expect(byName(parse(stale.stdout).checks, `lock ${state}`)).toMatchObject({ status: 'ok', detail: 'free' });
    lockAt(0);
    const held = await runMainAgainst(sandbox, ['doctor', '--lock', state, '-f', 'json']);
    expect(byName(parse(held.stdout).checks, `lock ${state}`)).toMatchObject({ status: 'warn' });
    rmSync(`${state}.lock`, { recursive: true });
    const foreign = path.join(dir, 'package.json');
    writeFileSync(foreign, '{"name":"x"}');
    const bad = await runMainAgainst(sandbox, ['doctor', '--state', foreign, '-f', 'json']);
    expect(bad.code).toBe(16);
    expect(byName(parse(bad.stdout).checks, `state ${foreign}`)?.detail).toBe(
      'not a recall-feed state file (version 1)',
    );
    // What feed --state refuses, doctor does not call fine: seen null, a pending entry that is no delivery.
    for (const text of ['{"version":1,"seen":null}', '{"version":1,"seen":{},"pending":[{"id":1}]}']) {
      writeFileSync(foreign, text);
      const refused = await runMainAgainst(sandbox, ['feed', '--state', foreign]);
      expect(refused.code).toBe(2);
      const checked = await runMainAgainst(sandbox, ['doctor', '--state', foreign, '-f', 'json']);
      expect(checked.code).toBe(16);
      expect(byName(parse(checked.stdout).checks, `state ${foreign}`)?.status).toBe('fail');
    }
  });

  it('--check-delivery: the SMTP server greets and takes the login, the webhook accepts a connection; nothing is sent', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const smtp = await smtpServer();
    const hook = await handlerServer((_req, res) => res.end());
    const env = { RECALL_FEED_SMTP_URL: smtp.url, RECALL_FEED_WEBHOOK: `${hook.url}/secret-token` };
    const r = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '-f', 'json'], { env });
    expect(r.code).toBe(0);
    const checks = parse(r.stdout).checks;
    expect(byName(checks, 'smtp')).toMatchObject({
      status: 'ok',
      detail: `smtp://127.0.0.1:${smtp.port} greets and accepts the login`,
    });
    expect(byName(checks, 'webhook')?.detail).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/… accepts connections/);
    expect(smtp.received).toEqual([]);
    expect(hook.requests).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(smtp.pass);
    expect(r.stdout + r.stderr).not.toContain('secret-token');
    // A wrong password fails the smtp check, and only it.
    const wrong = smtp.url.replace(encodeURIComponent(smtp.pass), 'nope');
    const bad = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '-f', 'json'], {
      env: { ...env, RECALL_FEED_SMTP_URL: wrong },
    });
    expect(bad.code).toBe(16);
    expect(
      parse(bad.stdout)
        .checks.filter((c) => c.status === 'fail')
        .map((c) => c.name),
    ).toEqual(['smtp']);
    // Without --check-delivery neither is contacted.
    const plain = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env });
    expect(parse(plain.stdout).checks.map((c) => c.name)).not.toContain('smtp');
    expect(hook.connections()).toBe(2);
  });

  it('through a proxy: the API is reached through it and the proxy is named; a dead proxy fails both checks', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const proxy = await testProxy({ forwardTo: sandbox.url });
    const args = ['--base-url', 'http://api.example.test', '--allow-insecure-http', 'doctor', '-f', 'json'];
    const env = { HTTP_PROXY: proxy.url };
    const r = await runMainAgainst(sandbox, args, { env });
    const checks = parse(r.stdout).checks;
    expect(byName(checks, 'proxy')).toMatchObject({
      status: 'ok',
      detail: `127.0.0.1:${proxy.port} (reached api.example.test through it)`,
    });
    expect(byName(checks, 'api')?.detail).toMatch(
      new RegExp(`^http://api\\.example\\.test answered 200 through 127\\.0\\.0\\.1:${proxy.port}`),
    );
    expect(proxy.requests.map((q) => q.target)).toEqual([
      'http://api.example.test/health',
      'http://api.example.test/v1/recalls/sources',
      expect.stringMatching(/^http:\/\/api\.example\.test\/v1\/recalls\/feed\?/),
    ]);
    expect(r.code).toBe(0);

    // The sandbox itself is on loopback, which never goes through a proxy: "none (direct)", as routed.
    const direct = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env });
    expect(byName(parse(direct.stdout).checks, 'proxy')?.detail).toBe('none (direct)');
    expect(proxy.requests).toHaveLength(3);

    const dead = await runMainAgainst(sandbox, args, { env: { HTTP_PROXY: `http://127.0.0.1:${await closedPort()}` } });
    expect(dead.code).toBe(16);
    const failed = parse(dead.stdout)
      .checks.filter((c) => c.status === 'fail')
      .map((c) => c.name);
    expect(failed).toEqual(['proxy', 'api']);
  });

  it("a clock five minutes or more off the API's Date header fails the clock check", async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { clock: fakeClock(Date.now() + 10 * 60_000) });
    expect(r.code).toBe(16);
    const clock = byName(parse(r.stdout).checks, 'clock');
    expect(clock?.status).toBe('fail');
    expect(clock?.detail).toMatch(/^\+(599|600|601) s against the API's Date header$/);
  });

  it('a sandbox started at another instant (--sandbox-now) says so, and its Date is not held against this clock', async () => {
    const sandbox = await sandboxFor({ recordCount: 3, startTime: Date.parse('2026-06-01T12:00:00Z') });
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], {
      clock: fakeClock(Date.parse('2026-11-29T12:00:00Z')),
    });
    const clock = byName(parse(r.stdout).checks, 'clock');
    expect(clock?.status, r.stdout).toBe('skip');
    expect(clock?.detail).toBe('not compared: the sandbox runs on a clock of its own (--sandbox-now, --start-time)');
    expect(parse(r.stdout).checks.filter((c) => c.status === 'fail')).toEqual([]);
  });

  it('the same for a sandbox given a clock of its own, as `recall-feed sandbox --sandbox-now` gives it', async () => {
    const pinned = Date.parse('2026-06-01T12:00:00Z');
    const sandbox = await sandboxFor({ recordCount: 3, clock: () => pinned });
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], {
      clock: fakeClock(Date.parse('2026-11-29T12:00:00Z')),
    });
    const clock = byName(parse(r.stdout).checks, 'clock');
    expect(clock?.status, r.stdout).toBe('skip');
    expect(parse(r.stdout).checks.filter((c) => c.status === 'fail')).toEqual([]);
  });

  it('a malformed key fails the key check before any request carries it', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env: { RECALL_FEED_API_KEY: 'two\tparts' } });
    expect(r.code).toBe(16);
    expect(byName(parse(r.stdout).checks, 'key')?.detail).toMatch(/^malformed: /);
    expect(sandbox.requests().map((q) => q.path)).toEqual(['/health']);
  });

  it('a config file others may read, holding the key, warns (exit 15) with the chmod that fixes it', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const dir = tempDir('rf-doctor-config-');
    const env = { RECALL_FEED_CONFIG_DIR: dir, RECALL_FEED_API_KEY: undefined };
    const set = await runMain(['config', 'set', 'api-key'], { env, stdin: `${ALL_KEY}\n` });
    expect(set.code, set.stderr).toBe(0);
    const file = path.join(dir, 'config.json');
    chmodSync(file, 0o644);
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env });
    expect(r.code).toBe(15);
    const config = byName(parse(r.stdout).checks, 'config');
    expect(config?.status).toBe('warn');
    expect(config?.detail).toContain(`${file} (mode 0644)`);
    expect(config?.hint).toBe(`chmod 600 ${file}`);
    expect(byName(parse(r.stdout).checks, 'key')?.detail).toMatch(/^accepted \(profile\)/);
    expect(r.stdout + r.stderr).not.toContain(ALL_KEY);
  });

  it('a format doctor does not print is refused before any request (exit 2)', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: --format must be one of table, json, jsonl, not 'csv'\n");
    expect(sandbox.requests()).toEqual([]);
  });

  it('-f in capitals is the format every command takes it as (JSON is json)', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'JSON']);
    expect(r.stderr).not.toContain('error:');
    expect(parse(r.stdout).checks.map((c) => c.name)).toContain('key');
  });

  it('on a terminal: a table, one row per check', async () => {
    const sandbox = await sandboxFor({ recordCount: 10 });
    const r = await runMainAgainst(sandbox, ['doctor'], { stdoutIsTTY: true, columns: 100 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/check\s+status\s+detail/);
    for (const name of ['config', 'proxy', 'api', 'clock', 'key', 'quota'])
      expect(r.stdout).toMatch(new RegExp(`\\b${name}\\s+ok\\b`));
  });
});

describe.each(ENGINES)('doctor on a $engine archive', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('opens it read-only, verifies the case log, names the last sync of each source synced; never the password', async () => {
    const sandbox = await sandboxFor({ recordCount: 30, seed: 12 });
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--sources', 'us_cpsc'])).code).toBe(0);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--sources', 'uk_opss'])).code).toBe(0);
    const r = await runMainAgainst(sandbox, ['doctor', '--db', archive.db, '-f', 'json']);
    expect(r.code, r.stdout).toBe(0);
    const checks = parse(r.stdout).checks;
    expect(byName(checks, 'archive')?.detail).toMatch(new RegExp(`\\(${engine}\\) opens`));
    expect(byName(checks, 'cases')?.detail).toBe('0 cases, 0 events: the log verifies');
    expect(checks.filter((c) => c.name.startsWith('sync ')).map((c) => c.name)).toEqual([
      'sync us_cpsc',
      'sync uk_opss',
    ]);
    const password = URL.canParse(archive.db) ? new URL(archive.db).password : '';
    if (password !== '') expect(r.stdout + r.stderr).not.toContain(password);
  });
});
