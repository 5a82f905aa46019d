// `feed -o` in process: the target appears only when complete; --append adds after success; nothing is left behind.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 3, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());

describe('feed -o', () => {
  it('writes the same bytes as stdout, picks the format from the extension, and leaves only the target', async () => {
    const dir = tempDir();
    const piped = await runMainAgainst(sandbox, ['feed', '--max', '30']);
    const r = await runMainAgainst(sandbox, ['feed', '--max', '30', '-o', path.join(dir, 'out.jsonl')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(path.join(dir, 'out.jsonl'), 'utf8')).toBe(piped.stdout);
    await runMainAgainst(sandbox, ['feed', '--max', '30', '-o', path.join(dir, 'out.csv')]);
    expect(readFileSync(path.join(dir, 'out.csv'), 'utf8').startsWith('id,data_source,')).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['out.csv', 'out.jsonl']);
  });

  it('a failed run leaves an existing target exactly as it was', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'keep.jsonl');
    writeFileSync(target, 'precious\n');
    const before = statSync(target).mtimeMs;
    const r = await runMainAgainst(sandbox, ['feed', '--sources', 'us_fda', '-o', target]);
    expect(r.code).toBe(4);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(statSync(target).mtimeMs).toBe(before);
    expect(readdirSync(dir)).toEqual(['keep.jsonl']);
  });

  it('--append adds the new records after the old ones; csv writes its header only into a new file', async () => {
    const dir = tempDir();
    const csv = path.join(dir, 'log.csv');
    await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', csv, '--append']);
    await runMainAgainst(sandbox, ['feed', '--max', '2', '--sort', 'updated_at', '-o', csv, '--append']);
    const rows = lines(readFileSync(csv, 'utf8'));
    expect(rows.filter((l) => l.startsWith('id,data_source,'))).toHaveLength(1);
    expect(rows[0]!.startsWith('id,data_source,')).toBe(true);
    const jl = path.join(dir, 'log.jsonl');
    await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', jl, '--append']);
    await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', jl, '--append']);
    const all = expectedFeed(sandbox, { now: FIXED_START });
    expect(jsonLines(readFileSync(jl, 'utf8')).map((r) => r.id)).toEqual(
      [...all.slice(0, 3), ...all.slice(0, 2)].map((r) => r.id),
    );
    expect(readdirSync(dir).sort()).toEqual(['log.csv', 'log.jsonl']);
  });

  it('--append into an empty file writes the csv header', async () => {
    const dir = tempDir();
    const csv = path.join(dir, 'empty.csv');
    writeFileSync(csv, '');
    await runMainAgainst(sandbox, ['feed', '--max', '1', '-o', csv, '--append']);
    expect(readFileSync(csv, 'utf8').startsWith('id,data_source,')).toBe(true);
  });

  it('a missing folder cannot be written: exit 10, as for --state', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '-o', '/nonexistent-dir/x.jsonl']);
    expect(r.code).toBe(10);
    expect(r.stderr).toBe(
      'error: cannot write /nonexistent-dir/x.jsonl: its folder does not exist\nhint: create the folder first, or check the path\n',
    );
  });

  it('--resume without a partial file says there is nothing to resume', async () => {
    const dir = tempDir();
    const r = await runMainAgainst(sandbox, ['feed', '-o', path.join(dir, 'x.jsonl'), '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nothing to resume/);
    expect(existsSync(path.join(dir, 'x.jsonl'))).toBe(false);
  });
});
