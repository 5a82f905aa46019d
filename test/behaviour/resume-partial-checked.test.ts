// `--resume` checks `<file>.partial` against `<file>.partial.json` before any request: a partial that lost its end, a
// state whose numbers are not a size and a count, or a size that cuts a record in two is refused (exit 2), both files
// kept as they were; never a NUL-padded, doubled or half-record export put in place of the target.
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { printedCommand } from '../helpers/shell-words.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = { RECALL_FEED_API_KEY: DEMO_KEYS.all.key };

/** An export to `-o out.<ext>` stopped by a 503 after 2 pages of 20: its partial holds 40 records. */
async function interrupted(sandbox: Sandbox, ext: 'jsonl' | 'csv' | 'json') {
  const dir = tempDir('rf-resume-check-');
  const target = path.join(dir, `out.${ext}`);
  sandbox.setFaults({ failAfterPages: 2, failMode: 'error503' });
  const first = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '20', '-o', target]);
  expect(first.code, first.stderr).toBe(6);
  sandbox.setFaults({});
  const partial = `${target}.partial`;
  const statePath = `${partial}.json`;
  const state = JSON.parse(readFileSync(statePath, 'utf8')) as Record<string, unknown>;
  expect(state.count).toBe(40);
  expect(state.bytes).toBe(statSync(partial).size);
  const setState = (changes: Record<string, unknown>) =>
    writeFileSync(statePath, `${JSON.stringify({ ...state, ...changes })}\n`);
  return { dir, target, partial, statePath, state, setState, command: printedCommand(first.stderr) };
}

type Run = Awaited<ReturnType<typeof interrupted>>;

/** Resumes `run` and expects the refusal: exit 2, nothing sent, both files as they were, the target not made. */
async function expectRefused(sandbox: Sandbox, run: Run, message: RegExp): Promise<string> {
  const before = [readFileSync(run.partial), readFileSync(run.statePath)];
  sandbox.clearRequests();
  const r = await runMain(run.command, { env: KEY });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).toMatch(/\nhint: run without --resume to start over/);
  expect(sandbox.requests()).toEqual([]);
  expect(readdirSync(run.dir).sort()).toEqual([path.basename(run.partial), path.basename(run.statePath)]);
  expect([readFileSync(run.partial), readFileSync(run.statePath)]).toEqual(before);
  return r.stderr;
}

const doesNotMatch = /^error: cannot resume: \S+\.partial does not match \S+\.partial\.json: /;

describe('--resume refuses a partial that does not match its state', () => {
  it('a jsonl partial that lost its tail (truncate -s 1000): refused, never padded with NUL bytes', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'jsonl');
    truncateSync(run.partial, 1000);
    const stderr = await expectRefused(sandbox, run, doesNotMatch);
    expect(stderr).toMatch(/it has 1000 bytes, fewer than the \d+ the state says \(its end was lost\)\n/);
    expect(statSync(run.partial).size).toBe(1000);
  });

  it('a state whose bytes is 1e20: not a state file of this tool (exit 2, not an unexpected error)', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'jsonl');
    run.setState({ bytes: 1e20 });
    await expectRefused(sandbox, run, /^error: cannot resume: \S+\.partial\.json is not a state file of this tool\n/);
  });

  it('a state whose count is -1: refused, never writing the records of the partial twice', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'jsonl');
    run.setState({ count: -1 });
    await expectRefused(sandbox, run, /^error: cannot resume: \S+\.partial\.json is not a state file of this tool\n/);

    // Both files were left usable: with its own state back, and a torn record after its end (a run killed
    // mid-write), the partial is cut back to that end and the export finishes, each record once.
    run.setState({});
    writeFileSync(run.partial, '{"id":999999,"alert_tit', { flag: 'a' });
    const done = await runMain(run.command, { env: KEY });
    expect(done.code, done.stderr).toBe(0);
    const whole = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--page-size', '20']);
    expect(readFileSync(run.target, 'utf8')).toBe(whole.stdout);
    expect(readdirSync(run.dir)).toEqual(['out.jsonl']);
  });

  it('a state whose count is 1.5 or whose cursor is not text: not a state file of this tool', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'jsonl');
    run.setState({ count: 1.5 });
    await expectRefused(sandbox, run, /^error: cannot resume: \S+\.partial\.json is not a state file of this tool\n/);
    run.setState({ cursor: { after: 40 } });
    await expectRefused(sandbox, run, /^error: cannot resume: \S+\.partial\.json is not a state file of this tool\n/);
  });

  it('a jsonl state whose bytes ends inside the last record: refused, never a record glued to the next', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'jsonl');
    run.setState({ bytes: (run.state.bytes as number) - 100 });
    const stderr = await expectRefused(sandbox, run, doesNotMatch);
    expect(stderr).toMatch(/its first \d+ bytes do not end with a whole record\n/);
  });

  it('a jsonl state saying 40 records in 0 bytes: refused, never an export without them', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'jsonl');
    run.setState({ bytes: 0 });
    const stderr = await expectRefused(sandbox, run, doesNotMatch);
    expect(stderr).toMatch(/the state says 40 records in 0 bytes\n/);
  });

  it('a csv state whose bytes ends inside a row: refused, never half a row in the export', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'csv');
    run.setState({ bytes: (run.state.bytes as number) - 50 });
    const stderr = await expectRefused(sandbox, run, doesNotMatch);
    expect(stderr).toMatch(/its first \d+ bytes do not end with a whole record\n/);
  });

  it('a json state whose bytes ends inside the last record: refused', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interrupted(sandbox, 'json');
    run.setState({ bytes: (run.state.bytes as number) - 100 });
    const stderr = await expectRefused(sandbox, run, doesNotMatch);
    expect(stderr).toMatch(/its first \d+ bytes do not end with a whole record\n/);
  });
});
