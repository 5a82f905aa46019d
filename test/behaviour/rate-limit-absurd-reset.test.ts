// A 429 whose reset lies beyond what a JavaScript Date can hold (Retry-After: 99999999999999, an epoch reset of
// 999999999999999 s): every command says waiting is pointless, exit 5, never a stack trace or "Invalid time value".
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { handlerServer } from '../helpers/handler-server.js';
import { fakeClock, type MainOptions, runMain } from '../helpers/in-process.js';
import { ALL_KEY, lines } from '../helpers/sandbox.js';
import { errorBody } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const START = Date.parse('2026-03-10T12:00:00Z');
/** The reset as 100 years from the run's clock (no Date header is trusted less than this: none is sent). */
const HORIZON_AT = new Date(START + 100 * 365.25 * 86_400_000).toISOString();
const POINTLESS = `error: the minute limit resets only in more than 100 years (on ${HORIZON_AT}): waiting for it is pointless`;

const RETRY_AFTER = { 'retry-after': '99999999999999' };
const EPOCH_RESET = { 'x-ratelimit-reset-minute': '999999999999999' };

/** Every request answered 429 with `headers`, a minute limit and no reset_at; no Date header, so our clock counts. */
async function limitedServer(headers: Record<string, string>) {
  const body = JSON.stringify(errorBody('rate_limit_exceeded', 'slow down', { limit_type: 'minute', limit: 60 }));
  const server = await handlerServer((_req, res) => {
    res.sendDate = false;
    res.writeHead(429, { 'content-type': 'application/json', ...headers }).end(body);
  });
  return server;
}

function run(url: string, args: string[], opts: MainOptions = {}) {
  return runMain(['--base-url', url, ...args], {
    clock: fakeClock(START),
    ...opts,
    env: { RECALL_FEED_API_KEY: ALL_KEY, ...opts.env },
  });
}

describe.each([
  ['Retry-After: 99999999999999', RETRY_AFTER],
  ['X-RateLimit-Reset-Minute: 999999999999999', EPOCH_RESET],
])('a 429 with %s', (_name, headers) => {
  it.each([
    ['feed', ['feed', '-f', 'jsonl']],
    ['sources', ['sources']],
  ])('%s: the error line, exit 5, nothing on stdout, no wait', async (_cmd, args) => {
    const srv = await limitedServer(headers);
    const r = await run(srv.url, args);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    // feed adds how to continue (nothing was written) after it.
    expect(lines(r.stderr)[0]).toBe(POINTLESS);
    expect(r.stderr).not.toMatch(/Invalid time value|RangeError|\n\s+at /);
    expect(r.sleeps).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });

  it('sync: exit 5 with the same line, and no stack', async () => {
    const srv = await limitedServer(headers);
    const db = path.join(tempDir(), 'a.db');
    const r = await run(srv.url, ['sync', '--db', db]);
    expect(r.code).toBe(5);
    expect(lines(r.stderr)[0]).toBe(POINTLESS);
    expect(r.stderr).not.toMatch(/Invalid time value|RangeError|\n\s+at /);
  });

  it('--log-format json: one JSON error record saying the same, exit 5', async () => {
    const srv = await limitedServer(headers);
    const r = await run(srv.url, ['--log-format', 'json', 'feed', '-f', 'jsonl']);
    expect(r.code).toBe(5);
    const records = lines(r.stderr).map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(records.filter((x) => x.level === 'error').map((x) => x.msg)).toEqual([POINTLESS.slice('error: '.length)]);
  });

  it('feed --watch: the poll fails with the same line and the watch goes on (stopped by Ctrl-C: 130)', async () => {
    const srv = await limitedServer(headers);
    const stop = new AbortController();
    const clock = fakeClock(START, (_ms, count) => {
      if (count === 1) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await run(srv.url, ['feed', '--watch', '--interval', '60', '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('more than 100 years');
    expect(r.stderr).not.toMatch(/Invalid time value|unexpected error/);
  });
});
