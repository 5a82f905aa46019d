// 429s in a row for one request back off ever longer beyond the reset they name (the operator's advice: wait until
// the reset, then back off exponentially), within --max-wait; a reset too far off for a Date is read as 100 years,
// a wait nobody sits out, never an invalid Date. Injected clock and sleep: nothing waits for real.
import { describe, expect, it } from 'vitest';
import { WaitTooLongError } from '../../src/api/api-errors.js';
import type { ClientOptions } from '../../src/api/client.js';
import { errorBody, feedBody, scriptedServer, type Scripted } from '../helpers/scripted-server.js';
import { feedIds, virtualClient } from '../helpers/virtual-client.js';

const SERVER_NOW = Date.parse('2026-03-10T12:00:00Z');
const SERVER_DATE = 'Tue, 10 Mar 2026 12:00:00 GMT';
/** random() is 0.5: the margin after a reset is 100 + floor(0.5 * 500) ms. */
const MARGIN = 350;
const YEAR_MS = 365.25 * 86_400_000;

const record = (id: number) => ({ id, data_source: 'us_cpsc', published_at: '2026-03-10T00:00:00' });
const PAGE: Scripted = { body: feedBody([record(1)]) };

/** A minute-limit 429 dated by the server's clock, with the headers given. */
const limited = (headers: Record<string, string>, details: Record<string, unknown> = {}): Scripted => ({
  status: 429,
  headers: { date: SERVER_DATE, ...headers },
  body: errorBody('rate_limit_exceeded', 'Rate limit exceeded: 60 requests per minute', {
    limit_type: 'minute',
    limit: 60,
    ...details,
  }),
});
const retryNow = limited({ 'retry-after': '0' });

async function clientOn(script: Scripted[], opts: ClientOptions = {}) {
  const server = await scriptedServer(script);
  const { client, sleeps, events } = virtualClient(server.url, SERVER_NOW, opts);
  return { client, sleeps, events, requests: server.requests };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('429s in a row with Retry-After: 0', () => {
  it('the first waits only the margin; each further one 0.5 s, 1 s, 2 s, 4 s more beyond the reset', async () => {
    const c = await clientOn([retryNow, retryNow, retryNow, retryNow, retryNow, PAGE], { maxWaitMs: 120_000 });
    expect(await feedIds(c.client)).toEqual([1]);
    expect(c.sleeps).toEqual([MARGIN, MARGIN + 500, MARGIN + 1000, MARGIN + 2000, MARGIN + 4000]);
    expect(c.requests).toHaveLength(6);
    await c.client.close();
  });

  it('the backoff stops growing at 30 s', async () => {
    const c = await clientOn([...Array(10).fill(retryNow), PAGE], { maxWaitMs: 120_000 });
    expect(await feedIds(c.client)).toEqual([1]);
    const extra = [0, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
    expect(c.sleeps).toEqual(extra.map((ms) => MARGIN + ms));
    await c.client.close();
  });

  it('takes no more than --max-wait leaves: the backoff alone never gives up on a reset that fits', async () => {
    const c = await clientOn([...Array(6).fill(retryNow), PAGE], { maxWaitMs: 2000 });
    expect(await feedIds(c.client)).toEqual([1]);
    expect(c.sleeps).toEqual([MARGIN, MARGIN + 500, MARGIN + 1000, 2000, 2000, 2000]);
    await c.client.close();
  });

  it('a success ends the streak: the next request starts over at the margin', async () => {
    const next: Scripted = { body: feedBody([record(2)]) };
    const c = await clientOn([retryNow, retryNow, PAGE, retryNow, next], { maxWaitMs: 120_000 });
    expect(await feedIds(c.client)).toEqual([1]);
    expect(await feedIds(c.client)).toEqual([2]);
    expect(c.sleeps).toEqual([MARGIN, MARGIN + 500, MARGIN]);
    await c.client.close();
  });
});

describe('a reset beyond what a Date can hold', () => {
  it.each([
    ['Retry-After: 99999999999999 (seconds)', limited({ 'retry-after': '99999999999999' })],
    [
      'X-RateLimit-Reset-Minute: 999999999999999 (epoch seconds)',
      limited({ 'x-ratelimit-reset-minute': '999999999999999' }),
    ],
    ['Retry-After: 1e306 (a finite number of seconds, infinite in ms)', limited({ 'retry-after': '1e306' })],
  ])('%s: WaitTooLongError at once, more than 100 years, pointless, with a valid reset date', async (_name, answer) => {
    const c = await clientOn([answer], { maxWaitMs: 10 * YEAR_MS });
    const err = await failure(feedIds(c.client));
    expect(err).toBeInstanceOf(WaitTooLongError);
    const tooLong = err as WaitTooLongError;
    expect(tooLong.message).toBe('the minute limit resets only in more than 100 years');
    expect(tooLong.pointless).toBe(true);
    expect(tooLong.waitMs).toBe(100 * YEAR_MS);
    expect(tooLong.resetAt.toISOString()).toBe(new Date(SERVER_NOW + 100 * YEAR_MS).toISOString());
    expect(c.sleeps).toEqual([]);
    expect(c.requests).toHaveLength(1);
    await c.client.close();
  });

  it('a reset 73 years off is still taken at its word, in days', async () => {
    const c = await clientOn([limited({}, { reset_at: '2099-01-01T00:00:00Z' })], { maxWaitMs: 10 * YEAR_MS });
    const err = await failure(feedIds(c.client));
    const days = Math.floor((Date.parse('2099-01-01T00:00:00Z') + MARGIN - SERVER_NOW) / 86_400_000);
    expect((err as WaitTooLongError).message).toBe(`the minute limit resets only in ${days} days`);
    await c.client.close();
  });
});
