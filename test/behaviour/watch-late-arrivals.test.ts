// `feed --watch` and `match --watch` and the recalls that reach the API hours after their published_at (CPSC dates a
// notice at midnight): routine polls ask for the last hour, the first poll and one an hour for the whole 24 hours, and a
// poll never looks back less than the time since the last one. The sandbox runs on the watch's injected clock, so its
// window moves with the polls; nothing sleeps for real.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, type MainResult, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const START = Date.parse('2026-06-01T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A time as the API writes published_at: naive ISO, seconds, UTC. */
const naive = (ms: number) => new Date(ms).toISOString().slice(0, 19);

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

interface Watched {
  r: MainResult;
  /** Each request of the feed: when it reached the sandbox, and the window it asked for. */
  requests: [number, string | undefined][];
}

/**
 * `args` (a `--watch`) in process, the sandbox on the same fake clock. `step` runs in each pause between two polls, with
 * the clock's time (the next poll's) and what stdout holds so far; it returns true to stop the watch there (Ctrl-C).
 */
async function watchOnClock(
  args: string[],
  step: (s: Sandbox, now: number, pauses: number, stdout: string) => boolean | undefined,
  recordCount = 200,
  monthlyUsage = 0,
): Promise<Watched> {
  let stdout = '';
  let pauses = 0;
  const stop = new AbortController();
  const clock = fakeClock(START, () => {
    pauses++;
    if (pauses > 500) throw new Error('the watch never reached what the test waits for');
    if (step(live, clock.now(), pauses, stdout)) stop.abort(new InterruptedError('SIGINT'));
  });
  sandbox = await sandboxFor({ recordCount, seed: 43, clock: () => clock.now(), monthlyUsage });
  const live = sandbox;
  const r = await runMainAgainst(live, args, {
    clock,
    signal: stop.signal,
    onOutput: (stream, text) => {
      if (stream === 'stdout') stdout += text;
    },
  });
  const requests = live
    .requests()
    .filter((q) => q.path === '/v1/recalls/feed')
    .map((q): [number, string | undefined] => [Date.parse(q.at), q.query.hours_ago]);
  return { r, requests };
}

/** The ids (or a match row's recall ids) in whole lines of jsonl. */
function idsIn(text: string, field = 'id'): unknown[] {
  return jsonLines(text.slice(0, text.lastIndexOf('\n') + 1)).map((row) => row[field]);
}

/** Poll n (from 0) begins n intervals after the start; the first and each one an hour after the last sweep ask for 24 h. */
function sweepsEveryHour(polls: number, intervalMs: number): [number, string][] {
  let lastSweep = Number.NEGATIVE_INFINITY;
  return Array.from({ length: polls }, (_, n) => {
    const at = START + n * intervalMs;
    if (at - lastSweep < HOUR) return [at, '1'];
    lastSweep = at;
    return [at, '24'];
  });
}

describe('--watch and recalls that reach the API late', () => {
  it.each([
    ['without --state', false],
    ['with --state', true],
  ])(
    '%s: a recall published 3 h before it arrives is printed once, within the hour; routine polls ask for 1 h',
    async (_, withState) => {
      const state = withState ? ['--state', path.join(tempDir(), 'seen.json')] : [];
      let late: number | undefined;
      let arrivedAt = 0;
      let printedAt: number | undefined;
      const w = await watchOnClock(
        ['feed', '--watch', '--interval', '60', '-f', 'jsonl', ...state],
        (s, now, pauses, out) => {
          if (pauses === 10) {
            late = s.addRecords([{ published_at: naive(now - 3 * HOUR) }])[0]!.id;
            arrivedAt = now;
          }
          if (late !== undefined && printedAt === undefined && idsIn(out).includes(late)) printedAt = now;
          return pauses === 150;
        },
      );
      expect(w.r.code, w.r.stderr).toBe(130);
      expect(w.r.stderr).not.toContain('warning');
      const ids = idsIn(w.r.stdout);
      expect(ids.filter((id) => id === late)).toHaveLength(1);
      expect(new Set(ids).size).toBe(ids.length);
      // Printed by a poll that began within an hour of its arrival (seen here in the pause after that poll).
      expect(printedAt).toBeDefined();
      expect(printedAt! - arrivedAt).toBeLessThanOrEqual(HOUR + MINUTE);
      // 150 polls a minute apart: the 1st, 61st and 121st sweep the whole window (one page each here), the rest one hour.
      expect(w.requests).toEqual(sweepsEveryHour(150, MINUTE));
    },
  );

  it('match --watch checks the late recall against the catalogue when the sweep brings it', async () => {
    const catalog = path.join(tempDir(), 'products.csv');
    const barcode = '4006381333931';
    writeFileSync(catalog, `sku,ean\nK-1,${barcode}\n`);
    let late: number | undefined;
    const w = await watchOnClock(['match', '--catalog', catalog, '--watch', '-f', 'jsonl'], (s, now, pauses) => {
      if (pauses === 5) {
        const ean = [{ type: 'EAN', value: barcode }];
        late = s.addRecords([{ published_at: naive(now - 5 * HOUR), standard_identifiers_and_barcodes: ean }])[0]!.id;
      }
      return pauses === 65;
    });
    expect(w.r.code, w.r.stderr).toBe(130);
    expect(jsonLines(w.r.stdout).map((row) => [row.recall_id, row.sku, row.level])).toEqual([[late, 'K-1', 'match']]);
    expect(w.requests).toEqual(sweepsEveryHour(65, MINUTE));
  });

  it.each([
    ['the default window', [] as string[]],
    ['--hours 1', ['--hours', '1']],
  ])('with %s, a long --interval widens the next window over the time since the last poll', async (_, hours) => {
    let between: number | undefined;
    const w = await watchOnClock(
      ['feed', '--watch', '--interval', '7200', '-f', 'jsonl', ...hours],
      (s, _now, pauses) => {
        // Published (and in the API) ten minutes after the first poll: an hour and fifty minutes before the second.
        if (pauses === 1) between = s.addRecords([{ published_at: naive(START + 10 * MINUTE) }])[0]!.id;
        return pauses === 3;
      },
    );
    expect(w.r.code, w.r.stderr).toBe(130);
    expect(idsIn(w.r.stdout).filter((id) => id === between)).toHaveLength(1);
    expect(w.requests.map(([at]) => at)).toEqual([START, START + 2 * HOUR, START + 4 * HOUR]);
    const windows = w.requests.map(([, h]) => Number(h));
    if (hours.length === 0) expect(windows).toEqual([24, 24, 24]);
    else {
      // The user's hour first; then enough to reach back past the poll before (2 h), not the whole day.
      expect(windows[0]).toBe(1);
      for (const h of windows.slice(1)) expect(h === 2 || h === 3).toBe(true);
    }
    expect(w.r.stderr).not.toContain('warning');
  });

  it("a sweep's extra pages do not stretch the pace: the quota is judged by what a routine poll costs", async () => {
    // 1,200 recalls a day: a sweep takes 3 pages of 500, a routine poll 1. 60,000 credits left: a poll a minute until
    // the month's reset (2026-07-01, 43,920 minutes away) is within them, 3 requests a poll would not be.
    const limit = 10_000_000; // the month of GENEROUS_LIMITS
    const w = await watchOnClock(['feed', '--watch', '-f', 'jsonl'], (_s, _n, p) => p === 5, 1200, limit - 60_000);
    expect(w.r.code, w.r.stderr).toBe(130);
    expect(w.r.stderr).not.toContain('would use up the monthly quota');
    const starts = [...new Set(w.requests.map(([at]) => at))];
    expect(starts.slice(1).map((at, n) => at - (starts[n] as number))).toEqual([MINUTE, MINUTE, MINUTE, MINUTE]);
    expect(w.requests.filter(([, h]) => h === '24')).toHaveLength(3);
  });

  it('--hours is the window of every poll: no sweep', async () => {
    const w = await watchOnClock(
      ['feed', '--watch', '--interval', '60', '--hours', '2', '-f', 'jsonl'],
      (_s, _n, p) => p === 70,
    );
    expect(w.r.code, w.r.stderr).toBe(130);
    expect(w.requests).toHaveLength(70);
    expect(w.requests.every(([, h]) => h === '2')).toBe(true);
  });

  it('an --interval longer than the 24 hours the API can look back is said once', async () => {
    const w = await watchOnClock(['feed', '--watch', '--interval', '90000', '-f', 'jsonl'], (_s, _n, p) => p === 3);
    expect(w.r.code, w.r.stderr).toBe(130);
    expect(w.r.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      'warning: --interval 90000 s is longer than the 24 hours the API can look back: recalls published between two polls will be missed',
    ]);
    expect(w.requests.map(([, h]) => h)).toEqual(['24', '24', '24']);
  });

  it('after failed polls, the next window covers the time since the last success; past 24 hours it says so once', async () => {
    let failingFrom: number | undefined;
    let recovered = false;
    const w = await watchOnClock(
      ['--retries', '0', 'feed', '--watch', '--interval', '60', '--hours', '1'],
      (s, now, p) => {
        if (p === 1) {
          failingFrom = now - MINUTE;
          s.setFaults({ error503: 1 });
        } else if (!recovered && now - failingFrom! > 25 * HOUR) {
          recovered = true;
          s.setFaults({});
        } else if (recovered) return true;
        return undefined;
      },
    );
    expect(w.r.code, w.r.stderr).toBe(130);
    const warnings = w.r.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^warning: more than 24 hours since the last successful poll, the most the API can look back: recalls published in between may be missed$/,
    );
    // The first poll asked for the user's hour; the failed ones, backing off, an hour more each hour; the last, all 24.
    const windows = w.requests.map(([, h]) => Number(h));
    expect(windows[0]).toBe(1);
    expect(windows.at(-1)).toBe(24);
    for (const [at, h] of w.requests.slice(1))
      expect(Number(h) * HOUR).toBeGreaterThanOrEqual(Math.min(24 * HOUR, at - START));
  });
});
