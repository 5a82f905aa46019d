// `feed --watch` meeting a day limit whose reset is hours away: the next poll waits for the reset (said on stderr),
// instead of asking again after a minute's backoff and meeting the same refusal.
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { handlerServer } from '../helpers/handler-server.js';
import { fakeClock, runMain } from '../helpers/in-process.js';
import { errorBody, feedBody } from '../helpers/scripted-server.js';

const KEY = { RECALL_FEED_API_KEY: 'dr_test_0123456789abcdef0123456789abcdef01234567' };
const START = Date.parse('2026-06-01T12:00:00Z');
const RESET = Date.parse('2026-06-01T17:00:00Z'); // five hours on
const record = {
  id: 1,
  data_source: 'us_cpsc',
  alert_title: 'recall 1',
  published_at: '2026-06-01T16:55:00',
  updated_at: '2026-06-01T16:55:00',
  created_in_db_at: '2026-06-01T16:56:00.000000+00:00',
};

describe('feed --watch under a day limit', () => {
  it('polls again only once the limit has reset, then writes what the API has', async () => {
    const stop = new AbortController();
    const wokeAt: number[] = [];
    const clock = fakeClock(START, (_ms, count) => {
      wokeAt.push(clock.now());
      if (count === 2) stop.abort(new InterruptedError('SIGINT'));
    });
    const server = await handlerServer((_req: http.IncomingMessage, res: http.ServerResponse) => {
      // The server's clock is the test's; the limit holds until RESET.
      const headers = { 'content-type': 'application/json', date: new Date(clock.now()).toUTCString() };
      if (clock.now() < RESET) {
        const body = errorBody('rate_limit_exceeded', 'Daily limit exceeded', {
          limit_type: 'day',
          limit: 1000,
          reset_at: new Date(RESET).toISOString(),
        });
        return res.writeHead(429, headers).end(JSON.stringify(body));
      }
      res.writeHead(200, headers).end(JSON.stringify(feedBody([record])));
    });
    const r = await runMain(['--base-url', server.url, 'feed', '--watch', '--interval', '2'], {
      env: KEY,
      clock,
      signal: stop.signal,
    });
    expect(r.code).toBe(130);
    // One refused poll, one after the reset that wrote the recall.
    expect(server.requests).toHaveLength(2);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: number }).id),
    ).toEqual([1]);
    // The first pause ends at the reset, give or take the request loop's margin of under a second.
    expect(wokeAt[0]).toBeGreaterThanOrEqual(RESET);
    expect(wokeAt[0]).toBeLessThan(RESET + 1000);
    expect(r.stderr).toMatch(
      /^recall-feed: poll failed: the day limit resets only in 18001 s \(at 2026-06-01T17:00:00\.\d{3}Z\), longer than --max-wait allows; next poll in 18001 s \(at 17:00:00, once the limit resets\)$/m,
    );
  });
});
