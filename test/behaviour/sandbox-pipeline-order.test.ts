// The sandbox's request pipeline over real HTTP: a path is read as sent (`//v1/...` names no host), and past the key
// check the rate limit comes first: a request that would be a 400 or 404 is a 429 while a window is full (not
// counted), and counts otherwise (docs/api.md, "When a limit is hit").
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RateLimitConfig, type Sandbox } from '../../src/sandbox/index.js';
import { closeAgent, get } from './sandbox-helpers.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const T0 = Date.parse('2026-01-15T10:00:00.250Z');

const LIMITS: RateLimitConfig = {
  minute: { limit: 3, windowMs: 5 * SECOND },
  hour: { limit: 5, windowMs: 30 * SECOND },
  day: { limit: 100, windowMs: 24 * 60 * MINUTE },
  month: { limit: 1000 },
};

let sb: Sandbox | undefined;
let now = T0;
async function sandbox(): Promise<Sandbox> {
  now = T0;
  sb = await startSandbox({ recordCount: 20, clock: () => now, rateLimits: LIMITS, rateLimitHeaders: true });
  return sb;
}
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});
afterAll(closeAgent);

const feed = (s: Sandbox) => get(s.url, '/v1/recalls/feed?limit=1');

describe('sandbox paths', () => {
  it('//v1/recalls/sources is an unknown path named as sent, not /recalls/sources of a host v1', async () => {
    const s = await sandbox();
    const r = await get(s.url, '//v1/recalls/sources');
    expect(r.status).toBe(404);
    expect(r.json.detail.error).toBe('not_found');
    expect(r.json.detail.message).toBe('No such endpoint: //v1/recalls/sources');
    expect(s.requests().at(-1)).toMatchObject({ path: '//v1/recalls/sources', status: 404 });
  });
});

describe('sandbox rate limit before validation', () => {
  it('a request that would be a 400 or a 404 is a 429 while the minute window is full, and is not counted', async () => {
    const s = await sandbox();
    for (let i = 0; i < 3; i++) expect((await feed(s)).status).toBe(200);
    const bad = await get(s.url, '/v1/recalls/feed?hours_ago=0');
    expect(bad.status).toBe(429);
    expect(bad.json.detail.details.limit_type).toBe('minute');
    expect(bad.headers['x-ratelimit-remaining-minute']).toBe('0');
    // The first request leaves the 5 s window at 10:00:05.250, rounded up to 10:00:06: 5.75 s from now, said as 6.
    expect(bad.headers['retry-after']).toBe('6');
    expect((await get(s.url, '/v1/recalls/nowhere')).status).toBe(429);
    expect((await get(s.url, '/v1/recalls/feed/shein')).status).toBe(429);
    // The window frees: the refusals were not counted (3 of the hour's 5 spent), and a 400 now counts.
    now += 5 * SECOND;
    const counted = await get(s.url, '/v1/recalls/feed?hours_ago=0');
    expect(counted.status).toBe(400);
    expect(counted.json.detail.error).toBe('validation_error');
    expect(counted.headers['x-ratelimit-remaining-hour']).toBe('1');
    const last = await feed(s);
    expect(last.status).toBe(200);
    expect(last.json.rate_limit.monthly_usage).toBe(5);
    // The hour's 5 are spent: the next is refused for the hour.
    expect((await feed(s)).json.detail.details.limit_type).toBe('hour');
  });
});
