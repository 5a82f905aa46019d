// Faults, rate limits and failures mid-export: every record exactly once, or a clear exit and a resume command.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { FIXED_START, jsonLines, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { expectedFeed, expectExactExport } from '../helpers/expected.js';
import { printedCommand } from '../helpers/shell-words.js';
import { until } from '../helpers/wait.js';

async function withSandbox<T>(opts: Parameters<typeof sandboxFor>[0], fn: (s: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await sandboxFor(opts);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const statuses = (s: Sandbox) => s.requests().map((r) => r.status);

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
        const r = await runAgainst(sandbox, ['feed', '--page-size', '50']);
        expect(r.exitCode).toBe(0);
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
    await withSandbox({ seed: 5 }, async (sandbox) => {
      sandbox.setFaults({ burst429: 0.5, burstLength: 2, seed: 5 });
      const started = Date.now();
      const r = await runAgainst(sandbox, ['feed', '--page-size', '60', '--hours', '6']);
      expect(r.exitCode).toBe(0);
      expect(expectExactExport(ids(r.stdout), sandbox, started, Date.now(), { hours: 6 })).toBeUndefined();
      expect(statuses(sandbox)).toContain(429);
      expect(r.stderr).toMatch(/rate limited by the API \(minute limit\), resuming in \d+ s/);
    });
  });

  it('a body that stalls is a timeout, retried; without retries it exits 6', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      sandbox.setFaults({ stall: 1, stallMs: 5000 });
      const r = await runAgainst(sandbox, ['--timeout', '0.5', '--retries', '0', 'feed', '--max', '5']);
      expect(r.exitCode).toBe(6);
      expect(r.stderr).toMatch(/^error: no complete answer from 127\.0\.0\.1:\d+ within the timeout\n/);
    });
  });
});

describe('rate limits', () => {
  it('paces a 60-page export under 10 requests per 2 s without a single 429', async () => {
    const limits = {
      minute: { limit: 10, windowMs: 2000 },
      hour: { limit: 10_000, windowMs: 3_600_000 },
      day: { limit: 100_000, windowMs: 86_400_000 },
      month: { limit: 1_000_000 },
    };
    await withSandbox({ rateLimits: limits, recordCount: 1200 }, async (sandbox) => {
      const started = Date.now();
      const r = await runAgainst(sandbox, ['--pace', 'minute=10/2s', 'feed', '--page-size', '20', '--hours', '24'], {
        timeout: 90_000,
      });
      expect(r.exitCode).toBe(0);
      expect(expectExactExport(ids(r.stdout), sandbox, started, Date.now())).toBeUndefined();
      expect(statuses(sandbox).filter((s) => s === 429)).toEqual([]);
      expect(sandbox.requests().length).toBeGreaterThanOrEqual(59);
      expect(r.stderr).toMatch(/^recall-feed: minute limit reached, resuming in \d+ s$/m);
    });
  }, 90_000);

  it('shares the budget with a second client: its 429s are absorbed and both exports are exact', async () => {
    const limits = {
      minute: { limit: 10, windowMs: 2000 },
      hour: { limit: 10_000, windowMs: 3_600_000 },
      day: { limit: 100_000, windowMs: 86_400_000 },
      month: { limit: 1_000_000 },
    };
    await withSandbox({ rateLimits: limits, recordCount: 600 }, async (sandbox) => {
      const started = Date.now();
      const args = ['--pace', 'minute=10/2s', 'feed', '--page-size', '20'];
      const [a, b] = await Promise.all([
        runAgainst(sandbox, args, { timeout: 90_000 }),
        runAgainst(sandbox, args, { timeout: 90_000 }),
      ]);
      const ended = Date.now();
      expect(a.exitCode).toBe(0);
      expect(b.exitCode).toBe(0);
      expect(expectExactExport(ids(a.stdout), sandbox, started, ended)).toBeUndefined();
      expect(expectExactExport(ids(b.stdout), sandbox, started, ended)).toBeUndefined();
      expect(statuses(sandbox)).toContain(429);
    });
  }, 90_000);

  it('a spent monthly quota exits 5 at once, naming the reset', async () => {
    await withSandbox({ monthlyUsage: 50_000, rateLimits: undefined, clock: () => FIXED_START }, async (sandbox) => {
      const r = await runAgainst(sandbox, ['feed']);
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toMatch(/2026-02-01T00:00:00/);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });

  it('the last credit is used, then it stops before sending another request', async () => {
    await withSandbox({ monthlyUsage: 49_999, rateLimits: undefined, clock: () => FIXED_START }, async (sandbox) => {
      const r = await runAgainst(sandbox, ['feed', '--page-size', '10']);
      expect(r.exitCode).toBe(5);
      expect(ids(r.stdout)).toHaveLength(10);
      expect(r.stderr).toMatch(/monthly quota of 50000 requests is used up; it resets on \d{4}-\d\d-01T00:00:00\.000Z/);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });

  it('a wait longer than --max-wait exits 5 with the limit, the reset and a resume command', async () => {
    const limits = {
      minute: { limit: 1, windowMs: 60_000 },
      hour: { limit: 1000, windowMs: 3_600_000 },
      day: { limit: 10_000, windowMs: 86_400_000 },
      month: { limit: 50_000 },
    };
    await withSandbox({ rateLimits: limits, clock: () => FIXED_START }, async (sandbox) => {
      const r = await runAgainst(sandbox, ['--max-wait', '5', 'feed', '--page-size', '10']);
      expect(r.exitCode).toBe(5);
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
        '--cursor',
        expect.any(String),
      ]);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });
});

describe('a server that fails part-way, then recovers', () => {
  it('stdout: exit 6 and a --cursor command; both outputs together hold every record once', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      sandbox.setFaults({ failAfterPages: 3, failMode: 'error503' });
      const first = await runAgainst(sandbox, ['--retries', '1', 'feed', '--page-size', '100']);
      expect(first.exitCode).toBe(6);
      expect(ids(first.stdout)).toHaveLength(300);
      expect(first.stderr).toMatch(
        /hint: 300 records were written\. To continue right after them, run:\n  recall-feed /,
      );
      const again = printedCommand(first.stderr);
      expect(again).not.toContain(DEMO_KEYS.all.key);
      sandbox.setFaults({});
      const second = await runCli(again, { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
      expect(second.exitCode).toBe(0);
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
        const whole = await runAgainst(sandbox, ['feed', '-f', format, '--page-size', '100']);
        sandbox.setFaults({ failAfterPages: 4, failMode: 'cut' });
        const first = await runAgainst(sandbox, [
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
        expect(first.exitCode).toBe(6);
        expect(existsSync(target)).toBe(false);
        expect(readdirSync(dir).sort()).toEqual([`export.${format}.partial`, `export.${format}.partial.json`]);
        const again = printedCommand(first.stderr);
        expect(again.at(-1)).toBe('--resume');
        expect(first.stderr).toMatch(new RegExp(`400 records are kept in .*export\\.${format}\\.partial`));
        sandbox.setFaults({});
        const second = await runCli(again, { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
        expect(second.exitCode).toBe(0);
        expect(readFileSync(target, 'utf8')).toBe(whole.stdout);
        expect(readdirSync(dir)).toEqual([`export.${format}`]);
      });
    },
  );

  it('a csv export that failed before its first record still gets its header when resumed', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      const dir = tempDir();
      const target = path.join(dir, 'late.csv');
      const whole = await runAgainst(sandbox, ['feed', '--page-size', '100', '-f', 'csv']);
      sandbox.setFaults({ failAfterPages: 0 });
      const first = await runAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '100', '-o', target]);
      expect(first.exitCode).toBe(6);
      expect(first.stderr).toMatch(/0 records are kept in/);
      sandbox.setFaults({});
      const second = await runCli(printedCommand(first.stderr), { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
      expect(second.exitCode).toBe(0);
      expect(readFileSync(target, 'utf8')).toBe(whole.stdout);
    });
  });

  it('a run without --resume starts over and discards a stale partial', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      const dir = tempDir();
      const target = path.join(dir, 'x.jsonl');
      sandbox.setFaults({ failAfterPages: 1 });
      await runAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '100', '-o', target]);
      expect(readdirSync(dir)).toHaveLength(2);
      sandbox.setFaults({});
      const fresh = await runAgainst(sandbox, ['feed', '--page-size', '100', '-o', target]);
      expect(fresh.exitCode).toBe(0);
      expect(readdirSync(dir)).toEqual(['x.jsonl']);
      expect(ids(readFileSync(target, 'utf8'))).toEqual(expectedFeed(sandbox, { now: FIXED_START }).map((x) => x.id));
    });
  });
});

describe('interrupts', () => {
  it('SIGTERM mid-export keeps the partial file, prints --resume and exits 130; resuming completes it', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      const dir = tempDir();
      const target = path.join(dir, 'big.csv');
      sandbox.setFaults({ slow: 1, slowMs: 300 });
      const child = runAgainst(sandbox, ['feed', '--page-size', '50', '-o', target]);
      await until('the third page request', () => sandbox.requests().length >= 3);
      child.kill('SIGTERM');
      const first = await child;
      expect(first.exitCode).toBe(130);
      expect(first.stderr).toMatch(/^error: interrupted\n/);
      expect(existsSync(target)).toBe(false);
      expect(existsSync(`${target}.partial`)).toBe(true);
      sandbox.setFaults({});
      const second = await runCli(printedCommand(first.stderr), { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
      expect(second.exitCode).toBe(0);
      const whole = await runAgainst(sandbox, ['feed', '-f', 'csv', '--page-size', '50']);
      expect(readFileSync(target, 'utf8')).toBe(whole.stdout);
      expect(readdirSync(dir)).toEqual(['big.csv']);
    });
  });
});
