// The run's one session, made by ops-action from the settings that say where the run reports: pings around
// everything the run refuses or does, the client observed through the session, digest's own -f kept from the settings.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { receivingServer } from '../helpers/handler-server.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A healthchecks stand-in: the path and body of every ping. */
async function receiver() {
  const server = await receivingServer('OK');
  return { url: `${server.url}/ping/run-1`, pings: server.received };
}

describe('a reporting run and its session', () => {
  it('a refused setting is the run’s failure: /start, then /fail with its message; no request sent', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const hc = await receiver();
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--timeout', '0', '--monitor', hc.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --timeout must be /);
    expect(hc.pings.map((p) => p.url)).toEqual(['/ping/run-1/start', '/ping/run-1/fail']);
    expect(hc.pings[1]?.body).toMatch(/^recall-feed feed: exit code 2: --timeout must be /);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it('the profile is read once, the settings refused or not: its permission warning is given once', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const hc = await receiver();
    const dir = tempDir('rf-ops-profile-');
    const file = path.join(dir, 'config.json');
    // The monitor comes from the profile, so where the run reports is read from it even when --timeout is refused.
    writeFileSync(file, JSON.stringify({ profiles: { default: { monitor: hc.url } } }));
    chmodSync(file, 0o644);
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    const warning = `warning: the config file ${file} holds a secret and is readable by others`;
    const ok = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--max', '1'], { env });
    expect(ok.code).toBe(0);
    expect(ok.stderr.split(warning)).toHaveLength(2);
    const refused = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--timeout', '0'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.split(warning)).toHaveLength(2);
    expect(hc.pings.map((p) => p.url)).toEqual([
      '/ping/run-1/start',
      '/ping/run-1',
      '/ping/run-1/start',
      '/ping/run-1/fail',
    ]);
  });

  it('a plan refused after the settings too (sync --interval without --watch)', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const hc = await receiver();
    const db = path.join(tempDir('rf-ops-session-'), 'r.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, '--interval', '60', '--monitor', hc.url]);
    expect([r.code, r.stderr]).toEqual([2, 'error: --interval works with --watch\n']);
    expect(hc.pings.map((p) => p.url)).toEqual(['/ping/run-1/start', '/ping/run-1/fail']);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it('feed --metrics-file: the client the session opens is observed (rate limits and credits in the file)', async () => {
    const sandbox = await sandboxFor({ recordCount: 4 });
    const file = path.join(tempDir('rf-ops-session-'), 'feed.prom');
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--metrics-file', file]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('recall_feed_last_run_success{command="feed"} 1\n');
    expect(text).toMatch(/^recall_feed_rate_limit_remaining\{window="minute"\} \d+$/m);
    expect(text).toMatch(/^recall_feed_monthly_credits_remaining \d+$/m);
  });

  it('digest -f markdown with a monitor: its own format never reaches the settings; /start then success', async () => {
    const sandbox = await sandboxFor({ recordCount: 6, seed: 3 });
    const db = path.join(tempDir('rf-ops-session-'), 'r.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    const hc = await receiver();
    const r = await runMainAgainst(sandbox, ['digest', '--db', db, '-f', 'markdown', '--monitor', hc.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# /m);
    expect(hc.pings.map((p) => p.url)).toEqual(['/ping/run-1/start', '/ping/run-1']);
  });
});
