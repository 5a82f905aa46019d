// `feed --watch` when the wall clock steps back (NTP, a VM resumed with a wrong clock): the pause between polls and the
// hourly sweep are measured on the monotonic clock, so the watch keeps its --interval and its sweeps.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { type FakeClock, fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';

const HOUR = 3_600_000;

/** The first page of each poll, with the window it asked for (pages after it carry a cursor). */
const polls = (s: Sandbox) =>
  s
    .requests()
    .filter((q) => q.path === '/v1/recalls/feed' && q.query.cursor === undefined)
    .map((q) => q.query.hours_ago);

/**
 * `feed --watch --interval <interval>` whose wall clock steps back an hour once: `during` 'poll' when the first poll
 * writes its first record, 'pause' in the pause after it; stopped (as Ctrl-C would) in its `stopAt`-th pause.
 */
async function watchWithStepBack(sandbox: Sandbox, interval: number, during: 'poll' | 'pause', stopAt: number) {
  const stop = new AbortController();
  let stepped = false;
  const stepBack = () => {
    if (stepped) return;
    stepped = true;
    clock.step(-HOUR);
  };
  const clock: FakeClock = fakeClock(Date.now(), (_ms, count) => {
    if (during === 'pause') stepBack();
    if (count === stopAt) stop.abort(new InterruptedError('SIGINT'));
  });
  const r = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', String(interval), '-f', 'jsonl'], {
    clock,
    signal: stop.signal,
    onOutput: (stream) => {
      if (during === 'poll' && stream === 'stdout') stepBack();
    },
  });
  expect(stepped).toBe(true);
  expect(r.code, r.stderr).toBe(130);
  return r;
}

describe('feed --watch with the wall clock stepped back an hour', () => {
  it('during the first poll: polls again after --interval 5 s of monotonic time, not an hour later', async () => {
    const sandbox = await sandboxFor({ seed: 41 });
    const r = await watchWithStepBack(sandbox, 5, 'poll', 2);
    // Each pause is the interval (the fake clocks do not move while a poll runs), and a poll follows each.
    expect(r.sleeps).toEqual([5000, 5000]);
    expect(polls(sandbox)).toHaveLength(2);
  });

  it('between two polls: still sweeps the whole day an hour (of monotonic time) after the last sweep', async () => {
    const sandbox = await sandboxFor({ seed: 41 });
    // Polls 600 s apart: the first sweeps, the next five ask for the last hour, the seventh (an hour on) sweeps again.
    const r = await watchWithStepBack(sandbox, 600, 'pause', 7);
    expect(r.sleeps).toEqual(Array(7).fill(600_000));
    expect(polls(sandbox)).toEqual(['24', '1', '1', '1', '1', '1', '24']);
  });
});
