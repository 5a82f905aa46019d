// `feed --watch` in process on a fake clock: many polls in no real time, faults on a seed, stopped by the abort signal.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';

describe('feed --watch', () => {
  it('survives faults: they are reported on stderr, and every new id is still written once', async () => {
    const sandbox = await sandboxFor({ recordCount: 30 });
    sandbox.setFaults({ error503: 0.3, cut: 0.1, seed: 9 });
    const added: number[] = [];
    const stop = new AbortController();
    let sleeps = 0;
    // Each sleep is the pause between two polls (no retries, limits never reached).
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps <= 8 && sleeps % 2 === 0) added.push(...sandbox.addRecords(2).map((r) => r.id));
      if (sleeps === 30) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--watch', '--interval', '1'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code).toBe(130);
    const ids = jsonLines(r.stdout).map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(added).toHaveLength(8);
    expect(added.filter((id) => !ids.includes(id))).toEqual([]);
    expect(sandbox.requests().some((q) => q.fault)).toBe(true);
    expect(r.stderr).toMatch(/^recall-feed: poll failed: .+; next poll in \d+ s$/m);
  });

  it('writes each poll oldest first (published_at, then id), so the log reads in time order', async () => {
    const sandbox = await sandboxFor();
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString().slice(0, 19);
    const stop = new AbortController();
    let added: number[] = [];
    // The first sleep follows the first poll; the second, the poll that found the arrivals.
    const clock = fakeClock(Date.now(), () => {
      if (added.length > 0) return stop.abort(new InterruptedError('SIGINT'));
      // Three arrivals in one poll, published out of id order.
      added = sandbox
        .addRecords([
          { published_at: minutesAgo(5) },
          { published_at: minutesAgo(20) },
          { published_at: minutesAgo(10) },
        ])
        .map((r) => r.id);
    });
    const r = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', '1'], { clock, signal: stop.signal });
    expect(r.code).toBe(130);
    const ids = jsonLines(r.stdout).map((x) => x.id as number);
    const firstPoll = ids.slice(0, -3);
    const at = new Map(sandbox.records().map((x) => [x.id, Date.parse(`${x.published_at}Z`)]));
    expect(firstPoll.length).toBeGreaterThan(1);
    expect(firstPoll).toEqual([...firstPoll].sort((a, b) => at.get(a)! - at.get(b)! || a - b));
    expect(ids.slice(-3)).toEqual([added[1], added[2], added[0]]);
  });
});
