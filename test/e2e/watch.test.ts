// `feed --watch` and `--state`: each new recall written once, across restarts and cron runs (faults: test/unit/feed-watch.test.ts).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { jsonLines, lines, runAgainst, sandboxFor, tempDir } from '../helpers/cli.js';
import { expectedFeed } from '../helpers/expected.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { until } from '../helpers/wait.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Starts `feed --watch` in the background, collecting stdout and stderr as they stream. */
function watch(s: Sandbox, args: string[], env: Record<string, string> = {}) {
  const child = runAgainst(s, ['feed', '--watch', '--interval', '1', ...args], { env, timeout: 120_000 });
  const out = { text: '' };
  const err = { text: '' };
  child.stdout!.on('data', (d: Buffer) => {
    out.text += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err.text += d.toString();
  });
  const ids = () => jsonLines(out.text.slice(0, out.text.lastIndexOf('\n') + 1)).map((r) => r.id);
  const polls = () => s.requests().filter((r) => r.path === '/v1/recalls/feed').length;
  const stop = async () => {
    child.kill('SIGINT');
    return child;
  };
  return { child, out, err, ids, polls, stop };
}

describe('feed --watch', () => {
  it('writes what is in the last hour, then each new recall exactly once within an interval', async () => {
    sandbox = await sandboxFor();
    const w = watch(sandbox, []);
    const initial = expectedFeed(sandbox, { hours: 1 }).map((r) => r.id);
    await until('the first poll', () => w.ids().length >= initial.length && w.polls() >= 1);
    const added = sandbox.addRecords(3).map((r) => r.id);
    const pollsAtAdd = w.polls();
    await until('the new records', () => added.every((id) => w.ids().includes(id)));
    // They came with the first poll that started after they were added.
    expect(w.polls()).toBeLessThanOrEqual(pollsAtAdd + 2);
    await until('two more polls', () => w.polls() >= pollsAtAdd + 3);
    const r = await w.stop();
    expect(r.exitCode).toBe(130);
    const ids = w.ids();
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(-3).sort()).toEqual([...added].sort());
    // Every poll pages the last hour (one page here) and nothing else.
    expect(sandbox.requests().every((q) => q.query.hours_ago === '1')).toBe(true);
  }, 60_000);

  it('--skip-existing only remembers the first poll; csv writes its header once', async () => {
    sandbox = await sandboxFor();
    const w = watch(sandbox, ['--skip-existing', '-f', 'csv', '--columns', 'id,product_name']);
    await until('the first poll', () => w.polls() >= 2);
    expect(w.out.text).toBe('');
    const added = sandbox.addRecords(2).map((r) => r.id);
    await until('the new records', () => lines(w.out.text).length === 3);
    await w.stop();
    const rows = lines(w.out.text);
    expect(rows[0]).toBe('id,product_name');
    expect(
      rows
        .slice(1)
        .map((l) => Number(l.split(',')[0]))
        .sort(),
    ).toEqual([...added].sort());
  }, 60_000);

  it('a restart with the same --state repeats nothing and misses nothing that arrived meanwhile', async () => {
    sandbox = await sandboxFor();
    const state = path.join(tempDir(), 'seen.json');
    const first = watch(sandbox, ['--state', state]);
    await until('the first poll', () => first.polls() >= 2);
    await first.stop();
    expect(statSync(state).mode & 0o777).toBe(0o600);
    const before = first.ids();
    const whileDown = sandbox.addRecords(4).map((r) => r.id);
    const pollsBefore = first.polls();
    const second = watch(sandbox, ['--state', state]);
    await until('the records that came while it was down', () => whileDown.every((id) => second.ids().includes(id)));
    await until('another poll', () => second.polls() >= pollsBefore + 2);
    await second.stop();
    expect(second.ids().sort()).toEqual([...whileDown].sort());
    expect(before.filter((id) => whileDown.includes(id as number))).toEqual([]);
  }, 60_000);

  it('a fatal answer ends the watch with its exit code', async () => {
    sandbox = await sandboxFor();
    const w = watch(sandbox, [], { RECALL_FEED_API_KEY: 'dr_test_nope000000000000000000000000000000000' });
    const r = await w.child;
    expect(r.exitCode).toBe(3);
    expect(sandbox.requests()).toHaveLength(1);
  });

  it('stretches the interval when it would use up the monthly quota, and says so', async () => {
    sandbox = await sandboxFor({ rateLimits: undefined, monthlyUsage: 49_000 });
    const w = watch(sandbox, []);
    const notice =
      /polling every 1 s would use up the monthly quota \(\d+ left\) before it resets; polling every \d+ s instead/;
    await until('the notice', () => notice.test(w.err.text));
    const r = await w.stop();
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toMatch(notice);
  });
});

describe('feed --state (cron)', () => {
  it('writes each recall once, ever, across runs appending to one csv file', async () => {
    sandbox = await sandboxFor();
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'new.csv');
    const cron = () =>
      runAgainst(sandbox!, ['feed', '--hours', '24', '--state', state, '-f', 'csv', '-o', out, '--append']);
    const first = await cron();
    expect(first.exitCode).toBe(0);
    const all = expectedFeed(sandbox).length;
    expect(await parseCsvWithPython(out)).toHaveLength(all + 1);
    const again = await cron();
    expect(again.exitCode).toBe(0);
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
    const failed = await runAgainst(sandbox, [
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
    expect(failed.exitCode).toBe(6);
    sandbox.setFaults({});
    const ok = await runAgainst(sandbox, ['feed', '--page-size', '100', '--state', state]);
    expect(jsonLines(ok.stdout)).toHaveLength(expectedFeed(sandbox).length);
  });

  it('an unreadable state file is a usage error and sends no request', async () => {
    sandbox = await sandboxFor();
    const state = path.join(tempDir(), 'seen.json');
    writeFileSync(state, '{"not":"ours"}');
    const r = await runAgainst(sandbox, ['feed', '--state', state]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: the state file .*seen\.json is not one this tool wrote/);
    expect(sandbox.requests()).toEqual([]);
    expect(readFileSync(state, 'utf8')).toBe('{"not":"ours"}');
  });
});
