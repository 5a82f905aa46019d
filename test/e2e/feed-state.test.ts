// `feed --state` from cron: --max counts new records, the state is checked before any request and staged before
// the output is committed, and id-less records are refused before anything is written.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import {
  ALL_KEY,
  BIN,
  cleanEnv,
  jsonLines,
  lines,
  ROOT,
  runAgainst,
  runCli,
  sandboxFor,
  tempDir,
} from '../helpers/cli.js';
import { expectedFeed } from '../helpers/expected.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const feedRequests = (s: Sandbox) => s.requests().filter((r) => r.path === '/v1/recalls/feed');

/**
 * Runs the CLI with files limited to 512 bytes (`ulimit -f 1`): writing more fails with EFBIG, as a full disk
 * fails with ENOSPC. Against the built-in sandbox: no key, and the same ids on every run.
 */
function runWithTinyDisk(args: string[]) {
  const child = execa('sh', ['-c', 'ulimit -f 1; exec node "$0" "$@"', BIN, '--sandbox', ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv(),
    cwd: ROOT,
    timeout: 60_000,
    stripFinalNewline: false,
  });
  deferCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await child;
  });
  return child;
}

describe('--max with --state', () => {
  it('counts new records written, oldest first, and sends no request beyond what they need', async () => {
    // The state forgets what was published more than 25 hours before the real clock: no fixed clock here.
    const sandbox = await sandboxFor();
    const state = path.join(tempDir(), 'seen.json');
    const all = expectedFeed(sandbox).map((r) => r.id);
    const run = (max: string[]) => runAgainst(sandbox, ['feed', '--page-size', '10', '--state', state, ...max]);

    const first = await run(['--max', '15']);
    expect(first.exitCode).toBe(0);
    // The first 15 of the window in the server's order (newest first), written oldest first.
    expect(ids(first.stdout)).toEqual(all.slice(0, 15).reverse());
    expect(feedRequests(sandbox)).toHaveLength(2);

    sandbox.clearRequests();
    const second = await run(['--max', '5']);
    expect(ids(second.stdout)).toEqual(all.slice(15, 20).reverse());
    // Pages 1 and 2 hold only records written before; page 2 has the 5 new ones.
    expect(feedRequests(sandbox)).toHaveLength(2);

    const rest = await run([]);
    const written = [...ids(first.stdout), ...ids(second.stdout), ...ids(rest.stdout)];
    expect(new Set(written).size).toBe(written.length);
    // The window moved on while the test ran: what is still in it was written, nothing from outside it.
    const inWindowNow = expectedFeed(sandbox).map((r) => r.id);
    expect(inWindowNow.filter((id) => !written.includes(id))).toEqual([]);
    expect(written.filter((id) => !all.includes(id as number))).toEqual([]);
  });
});

describe('the state file is checked before any request', () => {
  it('a folder that does not exist: exit 10 naming the path and the reason, nothing sent, nothing written', async () => {
    const sandbox = await sandboxFor();
    const dir = tempDir();
    const state = path.join(dir, 'missing', 'seen.json');
    const out = path.join(dir, 'new.csv');
    const r = await runAgainst(sandbox, ['feed', '--state', state, '-o', out]);
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toMatch(
      new RegExp(`^error: cannot write ${state}: its folder does not exist\\nhint: give --state a file in a folder`),
    );
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)('a read-only folder: exit 10 before any request', async () => {
    const sandbox = await sandboxFor();
    const locked = path.join(tempDir(), 'locked');
    mkdirSync(locked, { mode: 0o555 });
    const r = await runAgainst(sandbox, ['feed', '--state', path.join(locked, 'seen.json')]);
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toMatch(/^error: cannot write .*seen\.json: permission denied/);
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('the state is written before the output is committed', () => {
  it('a disk that cannot take the state: exit 10, the output untouched, and the next run writes what was missed', async () => {
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'new.csv');
    const csv = ['-f', 'csv', '--columns', 'id'];
    // The built-in sandbox serves the same ids on every run; the first run remembers 5 of them.
    const first = await runCli(['--sandbox', 'feed', '--state', state, '--max', '5', ...csv]);
    expect(first.exitCode).toBe(0);
    const stateBefore = readFileSync(state, 'utf8');

    // The state with every id no longer fits in 512 bytes.
    const full = await runWithTinyDisk(['feed', '--state', state, ...csv, '-o', out]);
    expect(full.exitCode).toBe(10);
    expect(full.stderr).toMatch(
      new RegExp(`^error: cannot write ${state}: the file is too large\\nhint: give --state a file`),
    );
    expect(readdirSync(dir)).toEqual(['seen.json']);
    expect(readFileSync(state, 'utf8')).toBe(stateBefore);

    // On stdout nothing is printed either: the state is staged before the records go out.
    const piped = await runWithTinyDisk(['feed', '--state', state, ...csv]);
    expect(piped.exitCode).toBe(10);
    expect(piped.stdout).toBe('');
    expect(readFileSync(state, 'utf8')).toBe(stateBefore);

    // The built-in sandbox's window moves with the clock: what it serves is read just before and just after.
    const before = await runCli(['--sandbox', 'feed', ...csv]);
    const again = await runCli(['--sandbox', 'feed', '--state', state, ...csv, '-o', out]);
    expect(again.exitCode).toBe(0);
    const after = await runCli(['--sandbox', 'feed', ...csv]);
    const rest = lines(readFileSync(out, 'utf8')).slice(1);
    const firstIds = lines(first.stdout).slice(1);
    expect(firstIds).toHaveLength(5);
    const written = [...firstIds, ...rest];
    expect(new Set(written).size).toBe(written.length);
    const [was, is] = [new Set(lines(before.stdout).slice(1)), new Set(lines(after.stdout).slice(1))];
    // Every id served all along was written; nothing was written that was never served.
    for (const id of was) if (is.has(id)) expect(written).toContain(id);
    for (const id of rest) expect(was.has(id) || is.has(id)).toBe(true);
  });
});

describe('records without an id', () => {
  it('--state with a custom feed whose records have no id: exit 2 before anything is written', async () => {
    const page1 = feedBody([{ id: 'a1', sku: 'X-1' }], { hasMore: true, next: 'c2' });
    const page2 = feedBody([{ sku: 'X-2', title: 'no id here' }]);
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    for (const output of [[], ['-o', path.join(dir, 'out.jsonl')]]) {
      const scripted = await scriptedServer([{ body: page1 }, { body: page2 }]);
      const r = await runCli(['--base-url', scripted.url, 'feed', '--custom', 'demo', '--state', state, ...output], {
        env: { RECALL_FEED_API_KEY: ALL_KEY },
      });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(
        /^error: --state needs an id in every record, and the custom feed 'demo' sent records without one\nhint: /,
      );
      expect(r.stdout).toBe('');
      expect(scripted.requests.map((q) => q.url.split('?')[0])).toEqual([
        '/v1/recalls/feed/demo',
        '/v1/recalls/feed/demo',
      ]);
      expect(readdirSync(dir)).toEqual([]);
      await scripted.close();
    }
  });
});
