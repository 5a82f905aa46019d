// `feed --watch` and `--state` in process: each new recall written once, across restarts and cron runs; the poll interval
// is the injected clock, so the test acts between two polls (faults: test/unit/feed-watch.test.ts).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, type MainResult, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

interface Watching {
  out: { text: string };
  err: { text: string };
  ids(): unknown[];
  polls(): number;
}

/**
 * `feed --watch` in process. `step` runs in each pause between two polls (the n-th sleep of the injected clock)
 * and returns true to interrupt the watch there, as Ctrl-C would; a watch that never stops fails the test.
 */
async function watch(
  s: Sandbox,
  args: string[],
  step: (w: Watching, sleep: number) => boolean | undefined = () => undefined,
  env: Record<string, string> = {},
  terminal = false,
): Promise<Watching & { r: MainResult }> {
  const out = { text: '' };
  const err = { text: '' };
  const w: Watching = {
    out,
    err,
    ids: () => jsonLines(out.text.slice(0, out.text.lastIndexOf('\n') + 1)).map((r) => r.id),
    polls: () => s.requests().filter((r) => r.path === '/v1/recalls/feed').length,
  };
  const stop = new AbortController();
  let sleeps = 0;
  const clock = fakeClock(Date.now(), () => {
    sleeps++;
    if (sleeps > 100) throw new Error('the watch never reached what the test waits for');
    if (step(w, sleeps)) stop.abort(new InterruptedError('SIGINT'));
  });
  const r = await runMainAgainst(s, ['feed', '--watch', '--interval', '1', ...args], {
    env,
    clock,
    // A terminal on both streams shows the status line (the poll's summary, with its countdown).
    ...(terminal && { stdoutIsTTY: true, stderrIsTTY: true, columns: 100 }),
    signal: stop.signal,
    onOutput: (stream, text) => {
      (stream === 'stdout' ? out : err).text += text;
    },
  });
  return { ...w, r };
}

describe('feed --watch', () => {
  it('writes what is in the last hour, then each new recall exactly once within an interval', async () => {
    sandbox = await sandboxFor();
    const live = sandbox;
    // The first poll reads the whole window (later ones the last hour, and one an hour the whole window again), and
    // writes the last hour's and ten minutes more (for a clock that runs fast): the rest of the day is only remembered.
    const cut = Date.now() - 70 * 60_000;
    const utcMs = (t: string) => Date.parse(/[zZ]$|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`);
    const initial = expectedFeed(live, { hours: 2 })
      .filter((r) => utcMs(String(r.published_at)) >= cut)
      .map((r) => r.id);
    const day = expectedFeed(live, { hours: 24 }).length;
    let added: number[] = [];
    let pollsAtAdd = 0;
    let pollsWhenFound = 0;
    let firstIds: unknown[] = [];
    const w = await watch(live, [], (w) => {
      if (added.length === 0) {
        // After the first poll.
        firstIds = [...w.ids()];
        expect(w.polls()).toBeGreaterThanOrEqual(1);
        added = live.addRecords(3).map((r) => r.id);
        pollsAtAdd = w.polls();
        return;
      }
      if (pollsWhenFound === 0 && added.every((id) => w.ids().includes(id))) pollsWhenFound = w.polls();
      return pollsWhenFound > 0 && w.polls() >= pollsAtAdd + 3;
    });
    // The first poll wrote exactly the last hour's: the rest of the day it read is remembered, not written.
    expect(firstIds.sort()).toEqual([...initial].sort());
    // They came with the first poll that started after they were added.
    expect(pollsWhenFound).toBeLessThanOrEqual(pollsAtAdd + 2);
    expect(w.r.code).toBe(130);
    const ids = w.ids();
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(-3).sort()).toEqual([...added].sort());
    // The first poll pages the whole 24 hours (500 a page); every later one, all within the hour, the last hour (one page).
    const windows = live.requests().map((q) => q.query.hours_ago);
    const firstPages = Math.ceil(day / 500);
    expect(windows).toEqual([...Array(firstPages).fill('24'), ...Array(windows.length - firstPages).fill('1')]);
  });

  it('--skip-existing only remembers the first poll; csv writes its header once', async () => {
    sandbox = await sandboxFor();
    const live = sandbox;
    // The first poll reads the whole day (it sweeps): every recall of it is remembered, none printed.
    const day = expectedFeed(live, { hours: 24 }).length;
    let added: number[] = [];
    const w = await watch(
      live,
      ['--skip-existing', '-f', 'csv', '--columns', 'id,product_name'],
      (w) => {
        if (added.length === 0) {
          if (w.polls() < 2) return;
          expect(w.out.text).toBe('');
          added = live.addRecords(2).map((r) => r.id);
          return;
        }
        return lines(w.out.text).length === 3;
      },
      { TERM: 'xterm' },
      true,
    );
    const rows = lines(w.out.text);
    expect(rows[0]).toBe('id,product_name');
    expect(
      rows
        .slice(1)
        .map((l) => Number(l.split(',')[0]))
        .sort(),
    ).toEqual([...added].sort());
    expect(w.err.text).toContain(`· ${day} existing recalls remembered, not printed`);
    expect(day).toBeGreaterThan(0);
  });

  it('a restart with the same --state repeats nothing and misses nothing that arrived meanwhile', async () => {
    sandbox = await sandboxFor();
    const live = sandbox;
    const state = path.join(tempDir(), 'seen.json');
    const first = await watch(live, ['--state', state], (w) => w.polls() >= 2);
    expect(statSync(state).mode & 0o777).toBe(0o600);
    const before = first.ids();
    const whileDown = live.addRecords(4).map((r) => r.id);
    const pollsBefore = first.polls();
    const second = await watch(
      live,
      ['--state', state],
      (w) => whileDown.every((id) => w.ids().includes(id)) && w.polls() >= pollsBefore + 2,
    );
    expect(second.ids().sort()).toEqual([...whileDown].sort());
    expect(before.filter((id) => whileDown.includes(id as number))).toEqual([]);
  });

  it('a fatal answer ends the watch with its exit code', async () => {
    sandbox = await sandboxFor();
    const w = await watch(sandbox, [], undefined, {
      RECALL_FEED_API_KEY: 'dr_test_nope000000000000000000000000000000000',
    });
    expect(w.r.code).toBe(3);
    expect(sandbox.requests()).toHaveLength(1);
  });

  it('stretches the interval when it would use up the monthly quota, and says so', async () => {
    sandbox = await sandboxFor({ rateLimits: undefined, monthlyUsage: 49_000 });
    const notice =
      /polling every 1 s would use up the monthly quota \(\d+ left\) before it resets; polling every \d+ s instead/;
    const w = await watch(sandbox, [], (w) => notice.test(w.err.text));
    expect(w.r.code).toBe(130);
    expect(w.r.stderr).toMatch(notice);
  });
});

describe('feed --state (cron)', () => {
  it('writes each recall once, ever, across runs appending to one csv file', async () => {
    sandbox = await sandboxFor();
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'new.csv');
    const cron = () =>
      runMainAgainst(sandbox!, ['feed', '--hours', '24', '--state', state, '-f', 'csv', '-o', out, '--append']);
    const first = await cron();
    expect(first.code).toBe(0);
    const all = expectedFeed(sandbox).length;
    expect(await parseCsvWithPython(out)).toHaveLength(all + 1);
    const again = await cron();
    expect(again.code).toBe(0);
    // Off a terminal a success says nothing, so cron mails nothing.
    expect(again.stderr).toBe('');
    expect(await parseCsvWithPython(out)).toHaveLength(all + 1);
    const added = sandbox.addRecords(3).map((r) => r.id);
    await cron();
    const rows = await parseCsvWithPython(out);
    expect(rows).toHaveLength(all + 4);
    expect(rows.filter((r) => r[0] === 'id')).toHaveLength(1);
    expect(
      rows
        .slice(-3)
        .map((r) => Number(r[0]))
        .sort(),
    ).toEqual([...added].sort());
    expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);
    expect(statSync(state).mode & 0o777).toBe(0o600);
  });

  it('a failed run saves nothing, so the next run writes what it missed', async () => {
    sandbox = await sandboxFor();
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    sandbox.setFaults({ failAfterPages: 1 });
    const failed = await runMainAgainst(sandbox, [
      '--retries',
      '0',
      'feed',
      '--page-size',
      '100',
      '--state',
      state,
      '-o',
      path.join(dir, 'a.jsonl'),
    ]);
    expect(failed.code).toBe(6);
    sandbox.setFaults({});
    const ok = await runMainAgainst(sandbox, ['feed', '--page-size', '100', '--state', state]);
    expect(jsonLines(ok.stdout)).toHaveLength(expectedFeed(sandbox).length);
  });

  it('an unreadable state file is a usage error and sends no request', async () => {
    sandbox = await sandboxFor();
    const state = path.join(tempDir(), 'seen.json');
    writeFileSync(state, '{"not":"ours"}');
    const r = await runMainAgainst(sandbox, ['feed', '--state', state]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the state file .*seen\.json is not one this tool wrote/);
    expect(sandbox.requests()).toEqual([]);
    expect(readFileSync(state, 'utf8')).toBe('{"not":"ours"}');
  });
});
