// Pacing on the server's count: with X-RateLimit-* headers on, a run that follows another on the same key waits for
// the window the first one spent instead of running into a 429.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectExactExport } from '../helpers/expected.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, lines, withSandbox } from '../helpers/sandbox.js';

const LIMITS = {
  minute: { limit: 10, windowMs: 30_000 },
  hour: { limit: 10_000, windowMs: 3_600_000 },
  day: { limit: 100_000, windowMs: 86_400_000 },
  month: { limit: 1_000_000 },
};

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const statuses = (s: Sandbox) => s.requests().map((r) => r.status);
/** The minute budget each `-v` request line reports. */
const budgets = (stderr: string) =>
  lines(stderr).flatMap((l) => {
    const m = / minute-budget=(\d+)$/.exec(l);
    return m ? [Number(m[1])] : [];
  });

describe('feed paced on the X-RateLimit headers', () => {
  it('two feeds back to back on a 10-per-30-s key: the second waits for the window, no 429', async () => {
    // One fake clock for the CLI and the sandbox: the waits move the sandbox's windows, in no real time.
    const clock = fakeClock();
    const sandboxOpts = { rateLimits: LIMITS, rateLimitHeaders: true, recordCount: 300, clock: () => clock.now() };
    await withSandbox(sandboxOpts, async (sandbox) => {
      const args = ['feed', '--page-size', '50', '-f', 'jsonl', '-v'];
      const started = clock.now();
      const first = await runMainAgainst(sandbox, args, { clock });
      expect(first.code).toBe(0);
      const spent = sandbox.requests().length;
      expect(spent).toBeGreaterThan(4);
      expect(spent).toBeLessThan(LIMITS.minute.limit);
      expect(first.sleeps).toEqual([]);

      const second = await runMainAgainst(sandbox, args, { clock });
      expect(second.code).toBe(0);
      expect(statuses(sandbox).filter((s) => s === 429)).toEqual([]);
      expect(sandbox.requests()).toHaveLength(2 * spent);
      expect(expectExactExport(ids(first.stdout), sandbox, started, clock.now())).toBeUndefined();
      expect(expectExactExport(ids(second.stdout), sandbox, started, clock.now())).toBeUndefined();
      // Its -v lines report the key's budget as the sandbox counts it, the first run's requests included.
      const left = LIMITS.minute.limit - spent;
      expect(budgets(second.stderr).slice(0, left)).toEqual(Array.from({ length: left }, (_, i) => left - 1 - i));
      // It sat out the rest of the window the first run opened (one wait), rather than meeting a 429.
      expect(second.sleeps).toHaveLength(1);
      expect(second.sleeps[0]).toBeGreaterThan(0);
      expect(second.sleeps[0]).toBeLessThanOrEqual(LIMITS.minute.windowMs + 1000);
      expect(second.stderr).toMatch(/minute limit reached/);
    });
  });
});
