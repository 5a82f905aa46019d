// A 429's wait is the reset measured against the answer's own Date header, whatever the local clock says; a reset
// that is not ahead backs off instead of retrying at once; a reset_at without a zone is UTC. Injected clock and sleep.
import { describe, expect, it, vi } from 'vitest';
import { RateLimitError, WaitTooLongError } from '../../src/api/api-errors.js';
import type { ClientOptions } from '../../src/api/client.js';
import { errorFromResponse } from '../../src/api/error-mapping.js';
import { serverNow } from '../../src/api/answer-headers.js';
import { errorBody, feedBody, scriptedServer, type Scripted } from '../helpers/scripted-server.js';
import { feedIds, virtualClient } from '../helpers/virtual-client.js';

/** The server's clock: its answers are dated at this instant. */
const SERVER_NOW = Date.parse('2026-03-10T12:00:00Z');
const SERVER_DATE = 'Tue, 10 Mar 2026 12:00:00 GMT';
/** random() is 0.5: the margin after a reset is 100 + floor(0.5 * 500) ms. */
const MARGIN = 350;
const MINUTE = 60_000;

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  published_at: '2026-03-10T00:00:00',
  updated_at: '2026-03-10T00:00:00',
  created_in_db_at: '2026-03-10T00:00:01.000000+00:00',
});

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

/** A 429 dated by the server's clock (`date`), with `details` and `headers` as given. */
const refusal = (details: Record<string, unknown> | undefined, headers: Record<string, string> = {}): Scripted => ({
  status: 429,
  headers: { date: SERVER_DATE, ...headers },
  body: errorBody('rate_limit_exceeded', 'Rate limit exceeded: 60 requests per minute', details),
});
const minuteReset = (at: number) => ({ limit_type: 'minute', limit: 60, reset_at: iso(at) });

/** A client whose own clock is `skewMs` off the server's: sleeping moves it, nothing waits for real. */
async function skewedClient(script: Scripted[], skewMs: number, opts: ClientOptions = {}) {
  const server = await scriptedServer([...script]);
  const { client, sleeps } = virtualClient(server.url, SERVER_NOW + skewMs, opts);
  return { client, sleeps, ids: () => feedIds(client), requests: server.requests };
}

const PAGE: Scripted = { body: feedBody([record(1)]) };

describe("a 429's wait is measured against the answer's Date header", () => {
  it('local clock 2 min fast: waits the 20 s the server means, once, then gets the page', async () => {
    const c = await skewedClient([refusal(minuteReset(SERVER_NOW + 20_000)), PAGE], 2 * MINUTE, {
      maxWaitMs: 120_000,
    });
    expect(await c.ids()).toEqual([1]);
    expect(c.sleeps).toEqual([20_000 + MARGIN]);
    expect(c.requests).toHaveLength(2);
    await c.client.close();
  });

  it('local clock 5 min slow: a reset 3 s away is waited out, not refused as 303 s beyond --max-wait', async () => {
    const c = await skewedClient([refusal(minuteReset(SERVER_NOW + 3000)), PAGE], -5 * MINUTE, {
      maxWaitMs: 120_000,
    });
    expect(await c.ids()).toEqual([1]);
    expect(c.sleeps).toEqual([3000 + MARGIN]);
    await c.client.close();
  });

  it('gives up (exit 5) on the corrected wait: a reset 200 s after the Date is "201 s", whatever our clock', async () => {
    const c = await skewedClient([refusal(minuteReset(SERVER_NOW + 200_000))], -5 * MINUTE, { maxWaitMs: 120_000 });
    const err = await c.ids().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTooLongError);
    expect((err as WaitTooLongError).message).toBe('the minute limit resets only in 201 s');
    expect((err as WaitTooLongError).waitMs).toBe(200_000 + MARGIN);
    expect(c.sleeps).toEqual([]);
    await c.client.close();
  });

  it('X-RateLimit-Reset (epoch seconds) and a Retry-After date are on the server clock too', async () => {
    const epoch = String((SERVER_NOW + 12_000) / 1000);
    const byHeader = await skewedClient([refusal(undefined, { 'x-ratelimit-reset-minute': epoch }), PAGE], 2 * MINUTE);
    expect(await byHeader.ids()).toEqual([1]);
    expect(byHeader.sleeps).toEqual([12_000 + MARGIN]);
    await byHeader.client.close();
    const byDate = await skewedClient(
      [refusal(undefined, { 'retry-after': 'Tue, 10 Mar 2026 12:00:07 GMT' }), PAGE],
      2 * MINUTE,
    );
    expect(await byDate.ids()).toEqual([1]);
    expect(byDate.sleeps).toEqual([7000 + MARGIN]);
    await byDate.client.close();
  });
});

describe('a reset that is not ahead of the answer', () => {
  it("one in the Date header's own second is now; one clearly behind backs off a minute, as a 429 without reset_at does", async () => {
    const c = await skewedClient(
      [refusal(minuteReset(SERVER_NOW)), refusal(minuteReset(SERVER_NOW - 5000)), refusal(undefined), PAGE],
      0,
      { maxWaitMs: 120_000 },
    );
    expect(await c.ids()).toEqual([1]);
    // The Date header counts whole seconds: a reset at its very second may be under a second away. Three 429s in
    // a row: the 2nd and 3rd back off 0.5 s and 1 s beyond their wait (rate-limit-streaks.test.ts).
    expect(c.sleeps).toEqual([MARGIN, MINUTE + MARGIN + 500, MINUTE + MARGIN + 1000]);
    await c.client.close();
  });

  it('a wait of a minute that --max-wait does not allow ends the run (exit 5) rather than hammering', async () => {
    const c = await skewedClient([refusal(minuteReset(SERVER_NOW - 1000))], 2 * MINUTE, { maxWaitMs: 30_000 });
    const err = await c.ids().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTooLongError);
    expect((err as Error).message).toBe('the minute limit resets only in 61 s');
    expect(c.requests).toHaveLength(1);
    await c.client.close();
  });
});

describe('without a usable Date header the local clock decides', () => {
  it('serverNow takes the HTTP date forms RFC 9110 has a recipient read, after 2000, and nothing else', () => {
    const local = Date.parse('2026-03-10T12:02:00Z');
    expect(serverNow({ date: SERVER_DATE }, local)).toBe(SERVER_NOW);
    // The obsolete forms: RFC 850 (two-digit year) and asctime (no zone, GMT by definition), and upper case.
    const tenMarchNoon = Date.UTC(2026, 2, 10, 12, 0, 0);
    expect(serverNow({ date: 'Tuesday, 10-Mar-26 12:00:00 GMT' }, local)).toBe(tenMarchNoon);
    expect(serverNow({ date: 'Tue Mar 10 12:00:00 2026' }, local)).toBe(tenMarchNoon);
    expect(serverNow({ date: 'TUE, 10 MAR 2026 12:00:00 GMT' }, local)).toBe(tenMarchNoon);
    expect(serverNow({ date: [SERVER_DATE, 'Wed, 11 Mar 2026 00:00:00 GMT'] }, local)).toBe(SERVER_NOW);
    expect(serverNow({}, local)).toBe(local);
    for (const bad of [
      '',
      'yesterday',
      '1',
      '2026-03-10T12:00:00Z',
      'Thu, 01 Jan 1970 00:00:00 GMT',
      'Tue, 10 Mar 2026 12:00:00',
    ]) {
      expect(serverNow({ date: bad }, local)).toBe(local);
    }
  });

  it('a Date from a clock never set (1970) is ignored: the wait is measured locally', async () => {
    const c = await skewedClient(
      [refusal(minuteReset(SERVER_NOW + 20_000), { date: 'Thu, 01 Jan 1970 00:00:05 GMT' }), PAGE],
      0,
    );
    expect(await c.ids()).toEqual([1]);
    expect(c.sleeps).toEqual([20_000 + MARGIN]);
    await c.client.close();
  });
});

describe('a reset_at without a zone is UTC, whatever the local zone', () => {
  /**
   * Date.parse as on a machine in New York (EDT, UTC-4, on 10 March 2026): ECMAScript reads an ISO date-time
   * without an offset as local time. Vitest's worker threads cannot change TZ, so Date.parse plays the zone.
   */
  function inNewYork() {
    const parse = Date.parse;
    vi.spyOn(Date, 'parse').mockImplementation((s: string) => {
      const naive = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s);
      return naive ? parse(`${s}Z`) + 4 * 3_600_000 : parse(s);
    });
  }

  it('the error keeps the instant UTC names', () => {
    inNewYork();
    const err = errorFromResponse(
      429,
      JSON.stringify(
        errorBody('rate_limit_exceeded', 'slow', { limit_type: 'minute', reset_at: '2026-03-10T12:00:03' }),
      ),
    );
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).resetAt?.toISOString()).toBe('2026-03-10T12:00:03.000Z');
  });

  it('a naive reset_at 3 s ahead is waited out in 3 s, not refused as 4 hours away', async () => {
    inNewYork();
    const c = await skewedClient(
      [refusal({ limit_type: 'minute', limit: 60, reset_at: '2026-03-10T12:00:03' }), PAGE],
      0,
      { maxWaitMs: 120_000 },
    );
    expect(await c.ids()).toEqual([1]);
    expect(c.sleeps).toEqual([3000 + MARGIN]);
    await c.client.close();
  });
});
