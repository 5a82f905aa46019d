// --monitor and --metrics-file end to end in process: healthchecks pings to a loopback receiver, the textfile promtool reads.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closedPort, silentServer } from '../helpers/test-proxy.js';
import { Monitor } from '../../src/runtime/ops/monitor.js';

/** A healthchecks stand-in: records every ping, answers 200 "OK". */
async function receiver() {
  const server = await receivingServer('OK');
  return { url: `${server.url}/ping/abc-123`, pings: server.received };
}

const PROMTOOL = '/usr/bin/promtool';

describe('--monitor', () => {
  it('sync: /start, then the URL on success with the summary in the body', async () => {
    const sandbox = await sandboxFor({ recordCount: 40, seed: 8 });
    const hc = await receiver();
    const db = path.join(tempDir('rf-mon-'), 'r.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, '--monitor', hc.url]);
    expect(r.code).toBe(0);
    expect(hc.pings.map((p) => `${p.method} ${p.url}`)).toEqual(['POST /ping/abc-123/start', 'POST /ping/abc-123']);
    expect(hc.pings[1]?.body).toMatch(/^recall-feed sync: ok in \d+\.\d s; fetched 40, new 40, updated 0\n/);
  });

  it('a failed run pings /fail with its exit code and the last lines of stderr, never the key', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const hc = await receiver();
    const key = 'rf_bad_key_987654321';
    const r = await runMainAgainst(sandbox, ['feed', '--monitor', hc.url], { env: { RECALL_FEED_API_KEY: key } });
    expect(r.code).toBe(3);
    expect(hc.pings.map((p) => p.url)).toEqual(['/ping/abc-123/start', '/ping/abc-123/fail']);
    const body = hc.pings[1]?.body ?? '';
    expect(body).toMatch(/^recall-feed feed: exit code 3: the API rejected the key: .* in \d+\.\d s\n/);
    expect(body).not.toContain(key);
  });

  it('a dead monitor is a warning and leaves the exit code alone (0 and 3)', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const url = `http://127.0.0.1:${await closedPort()}/ping/x`;
    const good = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--monitor', url]);
    expect(good.code).toBe(0);
    expect(good.stdout.trim().split('\n')).toHaveLength(5);
    expect(good.stderr).toMatch(/^warning: monitor http:\/\/127\.0\.0\.1:\d+\/… not reached \(start ping\)/m);
    expect(good.stderr).toMatch(/^warning: monitor .* not reached \(success ping\)/m);
    expect(good.stderr).not.toContain('/ping/x');
    const bad = await runMainAgainst(sandbox, ['feed', '--monitor', url], {
      env: { RECALL_FEED_API_KEY: 'rf_bad_key_1' },
    });
    expect(bad.code).toBe(3);
  });

  it('refuses a plain http monitor on another machine before anything is sent (exit 2)', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const r = await runMainAgainst(sandbox, ['feed', '--monitor', 'http://hc.example.com/ping/x']);
    expect(r.code).toBe(2);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it('--watch: one start, then one ping per poll; the interrupt that ends the watch sends none', async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 2 });
    const hc = await receiver();
    const db = path.join(tempDir('rf-mon-'), 'r.db');
    const stop = new AbortController();
    let polls = 0;
    const clock = fakeClock(Date.now(), () => {
      if (++polls === 2) stop.abort();
    });
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, '--watch', '--interval', '60', '--monitor', hc.url], {
      clock,
      signal: stop.signal,
    });
    expect(r.code).toBe(130);
    expect(hc.pings.map((p) => p.url)).toEqual(['/ping/abc-123/start', '/ping/abc-123', '/ping/abc-123']);
    expect(hc.pings[1]?.body).toContain('new 20');
    expect(hc.pings[2]?.body).toContain('new 0');
  });

  it('the monitor setting (RECALL_FEED_MONITOR) stands in for the flag', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const hc = await receiver();
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl'], { env: { RECALL_FEED_MONITOR: hc.url } });
    expect(r.code).toBe(0);
    expect(hc.pings.map((p) => p.url)).toEqual(['/ping/abc-123/start', '/ping/abc-123']);
  });
});

describe('--metrics-file', () => {
  it("with a sandbox's key (dr_test_) reports the cases of the archive the sync used: the sandbox's own file", async () => {
    const sandbox = await sandboxFor({ recordCount: 5, seed: 4 });
    const data = tempDir('rf-metrics-data-');
    const file = path.join(tempDir('rf-metrics-'), 'recall_feed.prom');
    // No --db: a dr_test_ key's recalls go to recalls-sandbox.db beside the real archive, never into it.
    const r = await runMainAgainst(sandbox, ['sync', '--metrics-file', file], { env: { XDG_DATA_HOME: data } });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(path.join(data, 'recall-feed'))).toContain('recalls-sandbox.db');
    expect(existsSync(path.join(data, 'recall-feed', 'recalls.db'))).toBe(false);
    // The case gauges come from the archive the run wrote; read from the other file there would be none.
    expect(readFileSync(file, 'utf8')).toContain('recall_feed_cases{state="open"} 0\n');
  });

  it('sync writes a textfile promtool accepts, with the run, records, rate limits, credits and cases', async (ctx) => {
    const sandbox = await sandboxFor({ recordCount: 30, seed: 9 });
    const dir = tempDir('rf-metrics-');
    const db = path.join(dir, 'r.db');
    const file = path.join(dir, 'recall_feed.prom');
    const r = await runMainAgainst(sandbox, [
      'sync',
      '--db',
      db,
      '--sources',
      'us_cpsc,uk_opss',
      '--metrics-file',
      file,
    ]);
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(
      /^recall_feed_last_success_timestamp_seconds\{command="sync",source="us_cpsc"\} \d+(\.\d+)?$/m,
    );
    expect(text).toMatch(/^recall_feed_last_success_timestamp_seconds\{command="sync",source="uk_opss"\} /m);
    expect(text).toContain('recall_feed_last_run_success{command="sync"} 1\n');
    expect(text).toContain('recall_feed_last_run_exit_code{command="sync"} 0\n');
    const fetched = Number(/^recall_feed_records_fetched\{command="sync"\} (\d+)$/m.exec(text)?.[1]);
    expect(fetched).toBeGreaterThan(0);
    expect(text).toContain(`recall_feed_records_new{command="sync"} ${fetched}\n`);
    expect(text).toMatch(/^recall_feed_rate_limit_remaining\{window="minute"\} \d+$/m);
    expect(text).toMatch(/^recall_feed_monthly_credits_remaining \d+$/m);
    expect(text).toContain('recall_feed_cases{state="open"} 0\n');
    expect((statSync(file).mode & 0o777).toString(8)).toBe('644');
    // No temporary file left beside it.
    expect(readdirSync(dir).filter((n) => n.includes('.tmp'))).toEqual([]);
    if (!existsSync(PROMTOOL)) {
      ctx.skip(`LOUD: ${PROMTOOL} is missing (Debian package prometheus): the textfile was not linted`);
      return;
    }
    expect(execFileSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' })).toBe('');
  });

  it('a failed run keeps the last success time, and records the failure and its exit code', async () => {
    const sandbox = await sandboxFor({ recordCount: 10 });
    const file = path.join(tempDir('rf-metrics-'), 'feed.prom');
    expect((await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--metrics-file', file])).code).toBe(0);
    const success = /^recall_feed_last_success_timestamp_seconds\{command="feed",source="all"\} (.+)$/m.exec(
      readFileSync(file, 'utf8'),
    )?.[1];
    expect(success).toBeDefined();
    const bad = await runMainAgainst(sandbox, ['feed', '--metrics-file', file], {
      env: { RECALL_FEED_API_KEY: 'rf_nope_1' },
    });
    expect(bad.code).toBe(3);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`recall_feed_last_success_timestamp_seconds{command="feed",source="all"} ${success}\n`);
    expect(text).toContain('recall_feed_last_run_success{command="feed"} 0\n');
    expect(text).toContain('recall_feed_last_run_exit_code{command="feed"} 3\n');
    if (existsSync(PROMTOOL))
      expect(execFileSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' })).toBe('');
  });

  it('cases: open after match --open-cases; overdue once past their due time (--sla), never without one', async () => {
    const sandbox = await sandboxFor({ recordCount: 80, seed: 21 });
    const dir = tempDir('rf-metrics-');
    const catalog = path.join(dir, 'products.csv');
    const withCode = sandbox
      .records()
      .filter((r) => r.standard_identifiers_and_barcodes.length > 0)
      .slice(0, 3);
    const code = (x: unknown) => (typeof x === 'string' ? x : String((x as { value: unknown }).value));
    writeFileSync(
      catalog,
      `sku,gtin\n${withCode.map((r, i) => `S${i},${code(r.standard_identifiers_and_barcodes[0])}`).join('\n')}\n`,
    );
    // The sandbox's recalls were published in the last 24 hours: with --sla 48h each is due within 48 hours.
    const opened = async (db: string, file: string, sla: string[]) => {
      expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
      const match = await runMainAgainst(sandbox, [
        'match',
        '--catalog',
        catalog,
        '--archive',
        '--db',
        db,
        '--open-cases',
        ...sla,
        '-f',
        'jsonl',
        '--metrics-file',
        file,
      ]);
      expect(match.code, match.stderr).toBe(0);
      const n = match.stdout.trim().split('\n').length;
      expect(n).toBeGreaterThan(0);
      expect(readFileSync(file, 'utf8')).toContain(`recall_feed_cases{state="open"} ${n}\n`);
      expect(readFileSync(file, 'utf8')).toContain('recall_feed_cases{state="overdue"} 0\n');
      return n;
    };
    const digestAt = async (db: string, file: string, days: number) => {
      const digest = await runMainAgainst(sandbox, ['digest', '--db', db, '--metrics-file', file], {
        clock: fakeClock(Date.now() + days * 86_400_000),
      });
      expect(digest.code, digest.stderr).toBe(0);
      return readFileSync(file, 'utf8');
    };

    const dueDb = path.join(dir, 'due.db');
    const dueFile = path.join(dir, 'due.prom');
    const due = await opened(dueDb, dueFile, ['--sla', '48h']);
    // Three days on: every case is past its due time, though opened less than a week ago.
    const text = await digestAt(dueDb, dueFile, 3);
    expect(text).toContain(`recall_feed_cases{state="overdue"} ${due}\n`);
    expect(text).toContain(`recall_feed_cases{state="open"} ${due}\n`);
    // Both commands' last successes are kept in the one file.
    expect(text).toMatch(/^recall_feed_last_success_timestamp_seconds\{command="match",source="all"\} /m);
    expect(text).toMatch(/^recall_feed_last_success_timestamp_seconds\{command="digest",source="all"\} /m);

    // Cases opened without a due time are never overdue, however old.
    const plainDb = path.join(dir, 'plain.db');
    const plainFile = path.join(dir, 'plain.prom');
    const plain = await opened(plainDb, plainFile, []);
    const later = await digestAt(plainDb, plainFile, 30);
    expect(later).toContain(`recall_feed_cases{state="open"} ${plain}\n`);
    expect(later).toContain('recall_feed_cases{state="overdue"} 0\n');
    if (existsSync(PROMTOOL))
      expect(execFileSync(PROMTOOL, ['check', 'metrics'], { input: later, encoding: 'utf8' })).toBe('');
  });
});

// Here, not among the unit tests: the timeout runs for real, over a real socket.
describe('Monitor', () => {
  it('a monitor that never answers is abandoned at its timeout: a warning, and false', async () => {
    const silent = await silentServer();
    const warnings: string[] = [];
    const monitor = new Monitor(new URL(`http://127.0.0.1:${silent.port}/p/x`), {}, (m) => warnings.push(m), 200);
    expect(await monitor.ping('start')).toBe(false);
    await monitor.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^monitor http://127\\.0\\.0\\.1:${silent.port}/… not reached \\(start ping\\)`),
    );
  });
});
