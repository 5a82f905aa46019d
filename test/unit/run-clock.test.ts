// The pinned clock of --sandbox-now: it starts at the instant and moves only by the time the run waits.
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/runtime/context.js';
import { pinnedContext, runContext } from '../../src/runtime/run-clock.js';
import { UsageError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMain } from '../helpers/in-process.js';

const AT = Date.parse('2026-06-01T12:00:00Z');

function contextOn(clock: ReturnType<typeof fakeClock>, env: Record<string, string> = {}): Context {
  return { env, now: () => clock.now(), sleep: (ms, signal) => clock.sleep(ms, signal) } as Context;
}

describe('pinnedContext', () => {
  it('reads the instant whatever the real clock says, plus each wait the run made', async () => {
    const real = fakeClock(Date.parse('2026-11-28T05:00:00Z'));
    const pinned = pinnedContext(contextOn(real), AT);
    expect(pinned.now()).toBe(AT);
    await pinned.sleep(1_500);
    await pinned.sleep(500);
    expect(pinned.now()).toBe(AT + 2_000);
    expect(real.sleeps).toEqual([1_500, 500]);
  });

  it('does not move for a wait that was cut short', async () => {
    const stop = new AbortController();
    stop.abort();
    const pinned = pinnedContext(contextOn(fakeClock()), AT);
    await expect(pinned.sleep(1_000, stop.signal)).rejects.toThrow();
    expect(pinned.now()).toBe(AT);
  });
});

describe('runContext', () => {
  it('pins a --sandbox run only; the variable leaves other runs on their own clock', () => {
    const real = fakeClock(Date.parse('2026-11-28T05:00:00Z'));
    const ctx = contextOn(real, { RECALL_FEED_SANDBOX_NOW: '2026-06-01T14:00:00+02:00' });
    expect(runContext({ sandbox: true }, ctx, false).now()).toBe(AT);
    expect(runContext({}, ctx, false).now()).toBe(real.now());
    expect(runContext({ sandbox: true }, ctx, true)).toBe(ctx);
  });
});

describe('a bad RECALL_FEED_SANDBOX_NOW', () => {
  const env = { RECALL_FEED_SANDBOX_NOW: 'garbage' };

  it('is read only by a run a sandbox is part of', () => {
    const real = fakeClock(Date.parse('2026-11-28T05:00:00Z'));
    const ctx = contextOn(real, env);
    expect(runContext({}, ctx, false)).toBe(ctx);
    expect(() => runContext({ sandbox: true }, ctx, false)).toThrow(UsageError);
    expect(() => runContext({ sandbox: true }, ctx, false)).toThrow(
      /^RECALL_FEED_SANDBOX_NOW must be an ISO 8601 time/,
    );
  });

  it('leaves a real run alone, and still stops a --sandbox one (exit 2)', async () => {
    const set = await runMain(['config', 'set', 'timeout', '12'], { env });
    expect(set.code, set.stderr).toBe(0);
    const path = await runMain(['config', 'path'], { env });
    expect(path.code, path.stderr).toBe(0);
    expect(path.stderr).toBe('');
    const sandboxed = await runMain(['config', 'path', '--sandbox'], { env });
    expect(sandboxed.code).toBe(2);
    expect(sandboxed.stderr).toMatch(/^error: RECALL_FEED_SANDBOX_NOW must be an ISO 8601 time with its zone/);
  });
});
