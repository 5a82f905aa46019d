// The monitor's ping URL is a secret (its path is the check's token): never printed in full by doctor, -v, errors or
// JSON logs, masked in text a server echoes, and never handed to an --exec child.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closedPort } from '../helpers/test-proxy.js';

const TOKEN = '5ecr3t-m0n1t0r-t0k3n-0123456789abcdef';
const KEY = 'dr_live_0123456789abcdef0123456789abcdef';

/** A healthchecks stand-in on loopback whose URL carries TOKEN; it records the paths pinged. */
async function monitor() {
  const paths: string[] = [];
  const server = await handlerServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.end('OK'));
  });
  return { url: `${server.url}/ping/${TOKEN}`, paths };
}

/** A 400 whose message, help and details repeat the monitor's URL back. */
function echoing(url: string) {
  return {
    status: 400,
    body: {
      success: false,
      detail: {
        error: 'validation_error',
        message: `unexpected callback ${url} (token ${TOKEN})`,
        help: `remove ${url}`,
        details: { echo: [url] },
      },
    },
  };
}

function expectNoToken(text: string): void {
  expect(text).not.toContain(TOKEN);
}

describe('the monitor URL is a secret', () => {
  it('server text echoing it (from --monitor): masked on stderr, in JSON logs and in sync_runs.error', async () => {
    const hc = await monitor();
    const server = await scriptedServer([echoing(hc.url)]);
    const db = path.join(tempDir('rf-monitor-echo-'), 'archive.db');
    const r = await runMain(
      ['--base-url', server.url, '--log-format', 'json', '-v', 'sync', '--db', db, '--monitor', hc.url],
      { env: { RECALL_FEED_API_KEY: KEY } },
    );
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(r.stderr).toContain('unexpected callback');
    expectNoToken(r.stderr);
    expect(hc.paths).toEqual([`/ping/${TOKEN}/start`, `/ping/${TOKEN}/fail`]);
    const archive = new Database(db, { readonly: true });
    try {
      const [run] = archive.prepare('SELECT error FROM sync_runs').all() as { error: string }[];
      expect(run?.error).toContain('unexpected callback');
      expectNoToken(run?.error ?? '');
    } finally {
      archive.close();
    }
  });

  it('server text echoing it (from RECALL_FEED_MONITOR, and from the profile): masked in the error line', async () => {
    const hc = await monitor();
    const fromEnv = await scriptedServer([echoing(hc.url)]);
    const r = await runMain(['--base-url', fromEnv.url, 'feed', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: KEY, RECALL_FEED_MONITOR: hc.url },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unexpected callback');
    expectNoToken(r.stderr);

    const dir = tempDir('rf-monitor-profile-');
    const env = { RECALL_FEED_CONFIG_DIR: dir, RECALL_FEED_API_KEY: KEY };
    expect((await runMain(['config', 'set', 'monitor', hc.url], { env })).code).toBe(0);
    const fromProfile = await scriptedServer([echoing(hc.url)]);
    const p = await runMain(['--base-url', fromProfile.url, 'feed', '-f', 'jsonl'], { env });
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('unexpected callback');
    expectNoToken(p.stderr);
  });

  it('a dead monitor with -v and JSON logs: warned about by its host only', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const url = `http://127.0.0.1:${await closedPort()}/ping/${TOKEN}`;
    const r = await runMainAgainst(sandbox, ['--log-format', 'json', '-v', 'feed', '-f', 'jsonl', '--monitor', url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/monitor http:\/\/127\.0\.0\.1:\d+\/… not reached \(start ping\)/);
    expectNoToken(r.stderr + r.stdout);
  });

  it('doctor names the monitor by its host, never pings it; a monitor --monitor would refuse fails the check', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const hc = await monitor();
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env: { RECALL_FEED_MONITOR: hc.url } });
    expect(r.code, r.stdout).toBe(0);
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks;
    const check = checks.find((c) => c.name === 'monitor');
    expect(check?.status).toBe('ok');
    expect(check?.detail).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/… \(RECALL_FEED_MONITOR\); not pinged/);
    expect(hc.paths).toEqual([]);
    expectNoToken(r.stdout + r.stderr);

    const plain = `http://monitor.example.com/ping/${TOKEN}`;
    const bad = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env: { RECALL_FEED_MONITOR: plain } });
    expect(bad.code).toBe(16);
    const failed = (JSON.parse(bad.stdout) as { checks: { name: string; status: string }[] }).checks.filter(
      (c) => c.status === 'fail',
    );
    expect(failed.map((c) => c.name)).toEqual(['monitor']);
    expectNoToken(bad.stdout + bad.stderr);
  });

  it('an --exec child never gets RECALL_FEED_MONITOR', async () => {
    const sandbox = await sandboxFor({ recordCount: 1 });
    const hc = await monitor();
    const dir = tempDir('rf-monitor-exec-');
    const script = path.join(dir, 'env.cjs');
    const out = path.join(dir, 'env.json');
    writeFileSync(script, "require('fs').writeFileSync(process.argv[2], JSON.stringify(process.env));\n");
    const r = await runMainAgainst(
      sandbox,
      ['sync', '--db', path.join(dir, 'r.db'), '--exec', `${process.execPath} ${script} ${out}`],
      { env: { RECALL_FEED_MONITOR: hc.url, RF_VISIBLE: 'kept' } },
    );
    expect(r.code, r.stderr).toBe(0);
    const childEnv = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>;
    expect(childEnv.RF_VISIBLE).toBe('kept');
    expect(childEnv.RECALL_FEED_MONITOR).toBeUndefined();
    expectNoToken(readFileSync(out, 'utf8'));
    // The run itself still pinged it.
    expect(hc.paths).toEqual([`/ping/${TOKEN}/start`, `/ping/${TOKEN}`]);
  });
});
