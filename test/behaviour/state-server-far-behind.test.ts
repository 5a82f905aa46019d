// `--state` and `--watch` against an API whose clock is months behind this machine's (a sandbox pinned with
// `--sandbox-now 2026-03-01T12:00:00Z`, or an answer outside the documented window): each recall it returns is
// written, and acted on, once. An id is kept while the API returns it, and forgotten once it no longer does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { expectedFeed } from '../helpers/expected.js';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const HOUR = 3_600_000;
/** The API's clock, pinned (its meta.timestamp says this date), and this machine's, nine months on. */
const SERVER_NOW = Date.parse('2026-03-01T12:00:00Z');
const CLIENT_NOW = Date.parse('2026-11-30T12:00:00Z');

const idsOf = (stdout: string) => jsonLines(stdout).map((r) => String(r.id));
const seenIn = (file: string) =>
  Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { seen: Record<string, number> }).seen).sort();

describe('feed --state with the API’s clock nine months behind this machine’s', () => {
  it('three runs write and post each recall of the window once; the state keeps their ids', async () => {
    const clock = fakeClock(CLIENT_NOW);
    const sandbox = await sandboxFor({ seed: 31, recordCount: 40, clock: () => SERVER_NOW });
    const hook = await receivingServer();
    const state = path.join(tempDir('rf-far-behind-'), 's.json');
    const run = async () => {
      const args = ['feed', '--hours', '24', '--state', state, '--webhook', `${hook.url}/hook`, '-f', 'jsonl'];
      const r = await runMainAgainst(sandbox, args, { clock });
      expect(r.code, r.stderr).toBe(0);
      return idsOf(r.stdout);
    };
    const window = expectedFeed(sandbox, { hours: 24, now: SERVER_NOW }).map((r) => String(r.id));
    expect(window.length).toBeGreaterThan(0);

    expect((await run()).sort()).toEqual([...window].sort());
    expect(seenIn(state)).toEqual([...window].sort());
    expect(await run()).toEqual([]);
    clock.advance(HOUR);
    expect(await run()).toEqual([]);

    const posted = hook.received.map((req) => String((JSON.parse(req.body) as { id: unknown }).id));
    expect(posted.sort()).toEqual([...window].sort());
  });

  it('an id stays while the API returns it, even past 25 hours, and goes 25 hours after it stopped', async () => {
    const clock = fakeClock(CLIENT_NOW);
    let serverNow = SERVER_NOW;
    const sandbox = await sandboxFor({ seed: 31, recordCount: 40, clock: () => serverNow });
    const state = path.join(tempDir('rf-far-behind-'), 's.json');
    const run = async () => {
      const r = await runMainAgainst(sandbox, ['feed', '--hours', '24', '--state', state, '-f', 'jsonl'], { clock });
      expect(r.code, r.stderr).toBe(0);
      return idsOf(r.stdout);
    };
    const window = expectedFeed(sandbox, { hours: 24, now: SERVER_NOW }).map((r) => String(r.id));

    expect((await run()).sort()).toEqual([...window].sort());
    // 30 hours on, the pinned API still returns the same recalls: none is written again.
    clock.advance(30 * HOUR);
    expect(await run()).toEqual([]);
    expect(seenIn(state)).toEqual([...window].sort());
    // Its clock moves two days on: its window holds none of them any more. Kept for 25 hours after the last answer
    // that held them (a sweep an hour later may still return one), then forgotten: the state does not grow for ever.
    serverNow += 48 * HOUR;
    clock.advance(24 * HOUR);
    expect(await run()).toEqual([]);
    expect(seenIn(state)).toEqual([...window].sort());
    clock.advance(2 * HOUR);
    expect(await run()).toEqual([]);
    expect(seenIn(state)).toEqual([]);
  });
});

describe('feed --watch with the API’s clock nine months behind this machine’s', () => {
  it('--hours 24: three polls write each recall of the window once', async () => {
    const stop = new AbortController();
    const clock = fakeClock(CLIENT_NOW, (_ms, count) => {
      if (count === 3) stop.abort(new InterruptedError('SIGINT'));
    });
    const sandbox = await sandboxFor({ seed: 31, recordCount: 40, clock: () => SERVER_NOW });
    const window = expectedFeed(sandbox, { hours: 24, now: SERVER_NOW }).map((r) => String(r.id));
    const r = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', '60', '--hours', '24', '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    expect(sandbox.requests().filter((q) => q.path === '/v1/recalls/feed').length).toBe(3);
    expect(idsOf(r.stdout).sort()).toEqual([...window].sort());
  });

  it('the default window, --interval 1: the recalls of the first poll are not written again by the next ones', async () => {
    const stop = new AbortController();
    const clock = fakeClock(CLIENT_NOW, (_ms, count) => {
      if (count === 3) stop.abort(new InterruptedError('SIGINT'));
    });
    const sandbox = await sandboxFor({ seed: 31, recordCount: 40, clock: () => SERVER_NOW });
    const r = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', '1', '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    expect(sandbox.requests().filter((q) => q.path === '/v1/recalls/feed').length).toBe(3);
    // The first poll reads the day and writes its routine hour, on this machine's clock (the API's, nine months
    // behind, is not believed): none of these recalls. It remembers them all, so the polls after write none either.
    expect(idsOf(r.stdout)).toEqual([]);
  });
});
