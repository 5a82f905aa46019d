// `recall-feed sandbox --start-time`: read as --sandbox-now is (ISO 8601 only, no 30 February: exit 2 with one line
// and a hint), a time without a zone being UTC, so that one start time is one world (test/integration/sandbox-start-time-tz
// runs it under another TZ).
import { afterAll, describe, expect, it } from 'vitest';
import { closeAgent, get } from './sandbox-helpers.js';
import { runMain } from '../helpers/in-process.js';
import { trackedSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/wait.js';

afterAll(closeAgent);

/**
 * `recall-feed sandbox` in process with `args`, stopped (as SIGTERM would) once it printed its address. What a
 * running one serves is asked by `whileUp` before it is stopped.
 */
async function sandboxRun(args: string[], whileUp: (url: string) => Promise<void> = async () => {}) {
  const stop = new AbortController();
  let stdout = '';
  const running = runMain(['sandbox', '--port', '0', '--json', ...args], {
    signal: stop.signal,
    onOutput: (stream, text) => {
      if (stream === 'stdout') stdout += text;
    },
  });
  let ended = false;
  void running.then(() => {
    ended = true;
  });
  await until('the sandbox prints its address or ends', () => stdout.includes('\n') || ended);
  if (stdout.includes('\n')) {
    try {
      await whileUp((JSON.parse(stdout) as { url: string }).url);
    } finally {
      stop.abort();
    }
  }
  return { ...(await running), started: stdout.includes('\n') };
}

describe('sandbox --start-time', () => {
  it.each([
    ['2026-02-30T00:00:00Z', 'error: --start-time 2026-02-30T00:00:00Z: no such day\nhint: 2026-02 has 28 days\n'],
    // Without a zone (UTC), the message names the value as given.
    ['2026-02-30T00:00:00', 'error: --start-time 2026-02-30T00:00:00: no such day\nhint: 2026-02 has 28 days\n'],
    [
      '2026-04-31T12:00:00+02:00',
      'error: --start-time 2026-04-31T12:00:00+02:00: no such day\nhint: 2026-04 has 30 days\n',
    ],
    ...['March 29 2026', 'tomorrow', '2026-3-29', '2026-03-29T25:00:00', '1774746000000'].map((value) => [
      value,
      `error: --start-time must be an ISO 8601 date or time, e.g. 2026-03-29 or 2026-03-29T01:00:00Z (without a zone: UTC), not '${value}'\n`,
    ]),
  ])('refuses %j with exit 2 and starts nothing', async (value, stderr) => {
    const r = await sandboxRun(['--start-time', value]);
    expect({ started: r.started, code: r.code, stderr: r.stderr }).toEqual({ started: false, code: 2, stderr });
  });

  it.each([
    ['2026-03-29T01:00:00', 'without a zone: UTC'],
    ['2026-03-29T01:00', 'without seconds or a zone: UTC'],
    ['2026-03-29T01:00:00Z', 'in UTC'],
    ['2026-03-29T03:00:00+02:00', 'at an offset'],
  ])('%s (%s) is the world of 2026-03-29T01:00:00Z', async (value) => {
    const same = await trackedSandbox({ startTime: Date.UTC(2026, 2, 29, 1), recordCount: 30, seed: 7 });
    let served: unknown;
    const r = await sandboxRun(['--start-time', value, '--records', '30', '--seed', '7'], async (url) => {
      served = (await get(url, '/_sandbox/records')).json.records;
    });
    expect(r.code, r.stderr).toBe(0);
    expect(served).toEqual(same.records());
  });

  it('a day alone (2026-03-29) is its midnight, UTC', async () => {
    const same = await trackedSandbox({ startTime: Date.UTC(2026, 2, 29), recordCount: 30, seed: 7 });
    let served: unknown;
    const r = await sandboxRun(['--start-time', '2026-03-29', '--records', '30', '--seed', '7'], async (url) => {
      served = (await get(url, '/_sandbox/records')).json.records;
    });
    expect(r.code, r.stderr).toBe(0);
    expect(served).toEqual(same.records());
  });
});
