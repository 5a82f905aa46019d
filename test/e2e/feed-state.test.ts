// `feed --state` under a real file-size limit (ulimit -f, in a spawned process): the state is staged before the output is committed. The rest runs in process (test/behaviour/feed-state.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { deferCleanup } from '../helpers/cleanup.js';
import { BIN, cleanEnv, lines, ROOT, runCli, tempDir } from '../helpers/cli.js';

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
