// Faults, rate limits and failures mid-export, in process: every record exactly once, or a clear exit and a resume command.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { expectedFeed, expectExactExport } from '../helpers/expected.js';
import { type FakeClock, fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, withSandbox } from '../helpers/sandbox.js';
import { printedCommand } from '../helpers/shell-words.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A fake clock the sandbox shares: the CLI's waits move the sandbox's rate windows too, in no real time. */
function sharedClock(): { clock: FakeClock; sandboxClock: () => number } {
  const clock = fakeClock();
  return { clock, sandboxClock: () => clock.now() };
}

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const statuses = (s: Sandbox) => s.requests().map((r) => r.status);
const env = { RECALL_FEED_API_KEY: DEMO_KEYS.all.key };

describe('faults', () => {
  it.each([11, 22, 33])(
    'under 5xx, cut, truncated and slow answers (fault seed %i) the export is exact',
    async (seed) => {
      await withSandbox({ seed, clock: () => FIXED_START }, async (sandbox) => {
        sandbox.setFaults({
          error500: 0.1,
          error503: 0.05,
          html502: 0.05,
          cut: 0.05,
          truncate: 0.05,
          slow: 0.1,
          slowMs: 200,
          seed,
        });
        const r = await runMainAgainst(sandbox, ['feed', '--page-size', '50']);
        expect(r.code).toBe(0);
        expect(ids(r.stdout)).toEqual(expectedFeed(sandbox, { now: FIXED_START }).map((x) => x.id));
        const faults = sandbox
          .requests()
          .filter((q) => q.fault)
          .map((q) => q.fault);
        expect(faults.length).toBeGreaterThan(5);
        expect(new Set(faults).size).toBeGreaterThanOrEqual(3);
        // Off a terminal: one plain line per retry on stderr, nothing else.
        expect(
          r.stderr
            .split('\n')
            .filter(Boolean)
            .every((l) => /^recall-feed: .+; retry \d+, resuming in \d+ s$/.test(l)),
        ).toBe(true);
      });
    },
  );

  it('absorbs bursts of 429 by waiting for reset_at', async () => {
    const { clock, sandboxClock } = sharedClock();
    await withSandbox({ seed: 5, clock: sandboxClock }, async (sandbox) => {
      sandbox.setFaults({ burst429: 0.5, burstLength: 2, seed: 5 });
      const started = clock.now();
      const r = await runMainAgainst(sandbox, ['feed', '--page-size', '60', '--hours', '6'], { clock });
      expect(r.code).toBe(0);
      expect(expectExactExport(ids(r.stdout), sandbox, started, clock.now(), { hours: 6 })).toBeUndefined();
      expect(statuses(sandbox)).toContain(429);
      // Absorbed: off a terminal (cron) nothing on stderr; -v says it (below), and so do the metrics.
      expect(r.stderr).toBe('');
    });
  });

  it('a 429 wait the run absorbed is said with -v, in the JSON log and in the metrics, never plainly to cron', async () => {
    const { clock, sandboxClock } = sharedClock();
    await withSandbox({ seed: 5, clock: sandboxClock }, async (sandbox) => {
      sandbox.setFaults({ burst429: 0.5, burstLength: 2, seed: 5 });
      const metrics = path.join(tempDir(), 'feed.prom');
      const args = ['feed', '--page-size', '60', '--hours', '6', '--metrics-file', metrics];
      const quiet = await runMainAgainst(sandbox, args, { clock });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe('');
      const waited = Number(/^recall_feed_rate_limit_wait_seconds (\S+)$/m.exec(readFileSync(metrics, 'utf8'))?.[1]);
      // Every pause of this run was a 429 wait (no 5xx here): the metric is their sum, on the injected clock.
      expect(waited).toBeGreaterThan(0);
      expect(waited).toBeCloseTo(quiet.sleeps.reduce((a, b) => a + b, 0) / 1000, 3);
      const verbose = await runMainAgainst(sandbox, ['-v', ...args], { clock });
      expect(verbose.stderr).toMatch(/^recall-feed: rate limited by the API \(minute limit\), resuming in \d+ s$/m);
      const json = await runMainAgainst(sandbox, ['--log-format', 'json', ...args], { clock });
      const records = json.stderr
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string; wait_ms?: number });
      expect(records.some((x) => x.msg.startsWith('rate limited by the API') && (x.wait_ms ?? 0) > 0)).toBe(true);
    });
  });

  it('a body that stalls is a timeout, retried; without retries it exits 6', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      sandbox.setFaults({ stall: 1, stallMs: 5000 });
      const r = await runMainAgainst(sandbox, ['--timeout', '0.5', '--retries', '0', 'feed', '--max', '5']);
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/^error: no complete answer from 127\.0\.0\.1:\d+ within the timeout\n/);
    });
  });
});

describe('rate limits', () => {
  const limits = {
    minute: { limit: 10, windowMs: 2000 },
    hour: { limit: 10_000, windowMs: 3_600_000 },
    day: { limit: 100_000, windowMs: 86_400_000 },
    month: { limit: 1_000_000 },
  };

  it('paces a 60-page export under 10 requests per 2 s without a single 429', async () => {
    const { clock, sandboxClock } = sharedClock();
    await withSandbox({ rateLimits: limits, recordCount: 1200, clock: sandboxClock }, async (sandbox) => {
      const started = clock.now();
      const r = await runMainAgainst(
        sandbox,
        ['--pace', 'minute=10/2s', 'feed', '--page-size', '20', '--hours', '24'],
        { clock },
      );
      expect(r.code).toBe(0);
      expect(expectExactExport(ids(r.stdout), sandbox, started, clock.now())).toBeUndefined();
      expect(statuses(sandbox).filter((s) => s === 429)).toEqual([]);
      expect(sandbox.requests().length).toBeGreaterThanOrEqual(59);
      // Pacing is the run's own care, no problem to mail from cron: off a terminal it is silent.
      expect(r.stderr).toBe('');
      // The pacing waited (on the injected clock) rather than running into the limit.
      expect(r.sleeps.length).toBeGreaterThan(0);
    });
  });

  it('shares the budget with a second client: its 429s are absorbed and both exports are exact', async () => {
    const { clock, sandboxClock } = sharedClock();
    await withSandbox({ rateLimits: limits, recordCount: 600, clock: sandboxClock }, async (sandbox) => {
      const started = clock.now();
      const args = ['--pace', 'minute=10/2s', 'feed', '--page-size', '20'];
      // Two clients of one budget, interleaved on one clock: each sees the other's requests only as 429s.
      const [a, b] = await Promise.all([
        runMainAgainst(sandbox, args, { clock }),
        runMainAgainst(sandbox, args, { clock }),
      ]);
      const ended = clock.now();
      expect(a.code).toBe(0);
      expect(b.code).toBe(0);
      expect(expectExactExport(ids(a.stdout), sandbox, started, ended)).toBeUndefined();
      expect(expectExactExport(ids(b.stdout), sandbox, started, ended)).toBeUndefined();
      expect(statuses(sandbox)).toContain(429);
    });
  });

  it('a spent monthly quota exits 5 at once, naming the reset', async () => {
    await withSandbox({ monthlyUsage: 50_000, rateLimits: undefined, clock: () => FIXED_START }, async (sandbox) => {
      const r = await runMainAgainst(sandbox, ['feed']);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/2026-02-01T00:00:00/);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });

  it('the last credit is used, then it stops before sending another request', async () => {
    await withSandbox({ monthlyUsage: 49_999, rateLimits: undefined, clock: () => FIXED_START }, async (sandbox) => {
      const r = await runMainAgainst(sandbox, ['feed', '--page-size', '10']);
      expect(r.code).toBe(5);
      expect(ids(r.stdout)).toHaveLength(10);
      expect(r.stderr).toMatch(/monthly quota of 50000 requests is used up; it resets on \d{4}-\d\d-01T00:00:00\.000Z/);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });

  it('a wait longer than --max-wait exits 5 with the limit, the reset and a resume command', async () => {
    const slow = {
      minute: { limit: 1, windowMs: 60_000 },
      hour: { limit: 1000, windowMs: 3_600_000 },
      day: { limit: 10_000, windowMs: 86_400_000 },
      month: { limit: 50_000 },
    };
    await withSandbox({ rateLimits: slow, clock: () => FIXED_START }, async (sandbox) => {
      const r = await runMainAgainst(sandbox, ['--max-wait', '5', 'feed', '--page-size', '10']);
      expect(r.code).toBe(5);
      expect(ids(r.stdout)).toHaveLength(10);
      expect(r.stderr).toMatch(
        /^error: the minute limit allows the next request only in \d+ s \(at .+Z\), longer than --max-wait allows\n/,
      );
      expect(printedCommand(r.stderr)).toEqual([
        '--base-url',
        sandbox.url,
        '--max-wait',
        '5',
        'feed',
        '--page-size',
        '10',
        expect.stringMatching(/^--cursor=./),
      ]);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });
});

describe('a server that fails part-way, then recovers', () => {
  it('stdout: exit 6 and a --cursor command; both outputs together hold every record once', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      sandbox.setFaults({ failAfterPages: 3, failMode: 'error503' });
      const first = await runMainAgainst(sandbox, ['--retries', '1', 'feed', '--page-size', '100']);
      expect(first.code).toBe(6);
      expect(ids(first.stdout)).toHaveLength(300);
      expect(first.stderr).toMatch(
        /hint: 300 records were written\. To continue right after them, run:\n  recall-feed /,
      );
      const again = printedCommand(first.stderr);
      expect(again).not.toContain(DEMO_KEYS.all.key);
      sandbox.setFaults({});
      const second = await runMain(again, { env });
      expect(second.code).toBe(0);
      expect([...ids(first.stdout), ...ids(second.stdout)]).toEqual(
        expectedFeed(sandbox, { now: FIXED_START }).map((x) => x.id),
      );
    });
  });

  it.each(['jsonl', 'csv', 'json'])(
    '-o (%s): the target stays as it was, --resume completes it and leaves nothing behind',
    async (format) => {
      await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
        const dir = tempDir();
        const target = path.join(dir, `export.${format}`);
        const whole = await runMainAgainst(sandbox, ['feed', '-f', format, '--page-size', '100']);
        sandbox.setFaults({ failAfterPages: 4, failMode: 'cut' });
        const first = await runMainAgainst(sandbox, [
          '--retries',
          '1',
          'feed',
          '-f',
          format,
          '--page-size',
          '100',
          '-o',
          target,
        ]);
        expect(first.code).toBe(6);
        expect(existsSync(target)).toBe(false);
        expect(readdirSync(dir).sort()).toEqual([`export.${format}.partial`, `export.${format}.partial.json`]);
        const again = printedCommand(first.stderr);
        expect(again.at(-1)).toBe('--resume');
        expect(first.stderr).toMatch(new RegExp(`400 records are kept in .*export\\.${format}\\.partial`));
        sandbox.setFaults({});
        const second = await runMain(again, { env });
        expect(second.code).toBe(0);
        expect(readFileSync(target, 'utf8')).toBe(whole.stdout);
        expect(readdirSync(dir)).toEqual([`export.${format}`]);
      });
    },
  );

  it('a csv export that failed before its first record still gets its header when resumed', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      const dir = tempDir();
      const target = path.join(dir, 'late.csv');
      const whole = await runMainAgainst(sandbox, ['feed', '--page-size', '100', '-f', 'csv']);
      sandbox.setFaults({ failAfterPages: 0 });
      const first = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '100', '-o', target]);
      expect(first.code).toBe(6);
      expect(first.stderr).toMatch(/0 records are kept in/);
      sandbox.setFaults({});
      const second = await runMain(printedCommand(first.stderr), { env });
      expect(second.code).toBe(0);
      expect(readFileSync(target, 'utf8')).toBe(whole.stdout);
    });
  });

  it('a run without --resume starts over and discards a stale partial', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      const dir = tempDir();
      const target = path.join(dir, 'x.jsonl');
      sandbox.setFaults({ failAfterPages: 1 });
      await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '100', '-o', target]);
      expect(readdirSync(dir)).toHaveLength(2);
      sandbox.setFaults({});
      const fresh = await runMainAgainst(sandbox, ['feed', '--page-size', '100', '-o', target]);
      expect(fresh.code).toBe(0);
      expect(readdirSync(dir)).toEqual(['x.jsonl']);
      expect(ids(readFileSync(target, 'utf8'))).toEqual(expectedFeed(sandbox, { now: FIXED_START }).map((x) => x.id));
    });
  });
});
