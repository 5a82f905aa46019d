// `feed --state` on a machine whose clock runs ahead of the API's: the state forgets an id only once the API's own
// window (on the server's clock) can no longer return it, so no run writes, or posts to a webhook, a recall twice.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { expectedFeed, ms } from '../helpers/expected.js';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const HOUR = 3_600_000;

describe('feed --state with this machine’s clock 2 hours ahead of the API', () => {
  it('three runs write each recall of the window once, and post it once', async () => {
    // The sandbox (the API) lives 2 hours behind the clock the CLI runs on; fixed instants: the same records every run.
    const clock = fakeClock(FIXED_START + 2 * HOUR);
    const serverNow = () => clock.now() - 2 * HOUR;
    const sandbox = await sandboxFor({ seed: 29, recordCount: 120, clock: serverNow });
    const hook = await receivingServer();
    const state = path.join(tempDir('rf-fast-clock-'), 'seen.json');
    const run = async () => {
      const r = await runMainAgainst(
        sandbox,
        ['feed', '--hours', '24', '--state', state, '--webhook', `${hook.url}/hook`, '-f', 'jsonl'],
        { clock },
      );
      expect(r.code, r.stderr).toBe(0);
      return jsonLines(r.stdout).map((rec) => String(rec.id));
    };

    // The API's window, on its own clock: what the first run writes.
    const window = expectedFeed(sandbox, { hours: 24, now: serverNow() }).map((r) => String(r.id));
    // The case at stake: recalls the API still returns that are older than 25 hours on this machine's clock.
    const older = expectedFeed(sandbox, { hours: 24, now: serverNow() }).filter(
      (r) => ms(r.published_at) < clock.now() - 25 * HOUR,
    );
    expect(older.length).toBeGreaterThan(0);

    const first = await run();
    expect([...first].sort()).toEqual([...window].sort());
    const second = await run();
    const third = await run();
    expect(second).toEqual([]);
    expect(third).toEqual([]);

    const posted = hook.received.map((req) => String((JSON.parse(req.body) as { id: unknown }).id));
    expect(posted.length).toBe(window.length);
    expect(new Set(posted).size).toBe(posted.length);
  });

  it('feed --watch --hours 24 (ids in memory) writes each recall once over three polls', async () => {
    const stop = new AbortController();
    const clock = fakeClock(FIXED_START + 2 * HOUR, (_ms, count) => {
      if (count === 3) stop.abort(new InterruptedError('SIGINT'));
    });
    const serverNow = () => clock.now() - 2 * HOUR;
    const sandbox = await sandboxFor({ seed: 29, recordCount: 120, clock: serverNow });
    const window = expectedFeed(sandbox, { hours: 24, now: serverNow() }).map((r) => String(r.id));
    const r = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', '60', '--hours', '24', '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    expect(sandbox.requests().filter((q) => q.path === '/v1/recalls/feed').length).toBe(3);
    const ids = jsonLines(r.stdout).map((rec) => String(rec.id));
    expect([...ids].sort()).toEqual([...window].sort());
  });

  it("feed --watch's first poll writes the routine hour of the API's clock, not of this machine's", async () => {
    const stop = new AbortController();
    const clock = fakeClock(FIXED_START + 2 * HOUR, (_ms, count) => {
      if (count === 1) stop.abort(new InterruptedError('SIGINT'));
    });
    const serverNow = () => clock.now() - 2 * HOUR;
    const sandbox = await sandboxFor({ seed: 29, recordCount: 120, clock: serverNow });
    // The first poll reads the whole day and writes what the routine window (1 hour) holds, ten minutes more for a
    // clock running fast: on the API's clock, as its window is.
    const expected = expectedFeed(sandbox, { hours: 24, now: serverNow() })
      .filter((rec) => ms(rec.published_at) >= serverNow() - HOUR - 10 * 60_000)
      .map((rec) => String(rec.id));
    expect(expected.length).toBeGreaterThan(0);
    const r = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', '60', '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    const ids = jsonLines(r.stdout).map((rec) => String(rec.id));
    expect([...ids].sort()).toEqual([...expected].sort());
  });
});
