// A missing output folder is one problem with one exit code: 10 (cannot write) for -o as for --state, before any request.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('a folder that does not exist', () => {
  it('-o: exit 10 naming the path and the reason, nothing sent, nothing written', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const dir = tempDir('rf-nofolder-');
    const out = path.join(dir, 'missing', 'recalls.csv');
    const r = await runMainAgainst(sandbox, ['feed', '-o', out]);
    expect(r.code).toBe(10);
    expect(r.stderr).toBe(
      `error: cannot write ${out}: its folder does not exist\nhint: create the folder first, or check the path\n`,
    );
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--state: the same exit 10, nothing sent, nothing written', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const dir = tempDir('rf-nofolder-');
    const state = path.join(dir, 'missing', 'seen.json');
    const r = await runMainAgainst(sandbox, ['feed', '--state', state, '-f', 'jsonl']);
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(new RegExp(`^error: cannot write ${state}: its folder does not exist\\nhint: `));
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
