// `--state` through a symbolic link: written through it as -o files are; a link into a folder that is gone stops the run (exit 10) before anything is written.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';

let sandbox: Sandbox;
beforeAll(async () => {
  // The real clock: the state forgets what was published more than 25 hours before now.
  sandbox = await sandboxFor({ seed: 13, recordCount: 30 });
});
afterAll(() => sandbox.close());

describe('--state through a symbolic link', () => {
  it('whose target folder is gone (an unmounted volume): exit 10, no request, no output, the link untouched', async () => {
    const dir = tempDir('rf-state-link-');
    const link = path.join(dir, 'seen.json');
    const gone = path.join(dir, 'volume', 'seen.json');
    symlinkSync(gone, link);
    const out = path.join(dir, 'log.jsonl');
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['feed', '--state', link, '-o', out, '--append']);
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(/^error: cannot write \S*volume\/seen\.json: its folder does not exist\n/);
    expect(r.stderr).toMatch(/\nhint: give --state a file in a folder this user can write to/);
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual(['seen.json']);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(gone);
  });

  it('to a file not there yet: the first run creates it through the link, which stays a link; the next run reads it', async () => {
    const dir = tempDir('rf-state-link-');
    mkdirSync(path.join(dir, 'real'));
    const real = path.join(dir, 'real', 'seen.json');
    const link = path.join(dir, 'seen.json');
    symlinkSync('real/seen.json', link);
    const first = await runMainAgainst(sandbox, ['feed', '--state', link]);
    expect(first.code).toBe(0);
    const window = expectedFeed(sandbox).map((rec) => rec.id);
    expect(
      jsonLines(first.stdout)
        .map((rec) => rec.id)
        .sort(),
    ).toEqual([...window].sort());
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real/seen.json');
    const seen = Object.keys((JSON.parse(readFileSync(real, 'utf8')) as { seen: object }).seen);
    expect(seen.map(Number).sort()).toEqual([...window].sort());
    expect(readdirSync(path.join(dir, 'real'))).toEqual(['seen.json']);

    const second = await runMainAgainst(sandbox, ['feed', '--state', link]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(real)).toBe(true);
  });
});
