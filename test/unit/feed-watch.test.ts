// `feed --watch` in process on a fake clock: many polls in no real time, faults on a seed, stopped by the abort signal.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
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
    const r = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--watch', '--interval', '1'], { clock, signal: stop.signal });
    expect(r.code).toBe(130);
    const ids = jsonLines(r.stdout).map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(added).toHaveLength(8);
    expect(added.filter((id) => !ids.includes(id))).toEqual([]);
    expect(sandbox.requests().some((q) => q.fault)).toBe(true);
    expect(r.stderr).toMatch(/^recall-feed: poll failed: .+; next poll in \d+ s$/m);
  });
});
