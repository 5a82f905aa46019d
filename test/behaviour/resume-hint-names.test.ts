// The `--resume` command printed for an -o name holding characters a message line cannot show (a line break, a tab, a
// bidi control): written in $'…' quotes with those characters escaped, so that the shell reads the very name back.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectedFeed } from '../helpers/expected.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ clock: () => FIXED_START });
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.setFaults({}));

/**
 * The words bash makes of a printed command line (bash itself, not a copy of the quoting rules), in the C locale: the
 * command must name the file whatever the user's locale.
 */
async function bashWords(line: string): Promise<string[]> {
  const r = await execa('bash', ['-c', `printf '%s\\0' ${line}`], {
    stripFinalNewline: false,
    env: { LC_ALL: 'C' },
  });
  return r.stdout.split('\0').slice(0, -1);
}

describe('a file name a message line would alter', () => {
  it.each([
    ['a line break', 'new\nline.jsonl'],
    ['a tab, a quote and a backslash', "tab\there's a \\.jsonl"],
    ['a bidi override and an escape', 'x\u202etxt.\u001b[31m.jsonl'],
  ])('%s: the printed command names that file to bash, and finishes it', async (_what, name) => {
    const dir = tempDir('rf-resume-names-');
    const out = path.join(dir, name);
    sandbox.setFaults({ failAfterPages: 2 });
    const args = ['--retries', '0', 'feed', '--page-size', '50', '-o', out];
    const first = await runMainAgainst(sandbox, args);
    expect(first.code, first.stderr).toBe(6);
    sandbox.setFaults({});
    const printed = first.stderr.split('\n').find((l) => l.startsWith('  recall-feed '));
    expect(printed, first.stderr).toBeDefined();
    // Nothing a terminal acts on, and one line.
    expect(printed).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    const words = await bashWords((printed as string).trim());
    expect(words).toEqual(['recall-feed', '--base-url', sandbox.url, ...args, '--resume']);
    const done = await runMain(words.slice(1), { env: { RECALL_FEED_API_KEY: ALL_KEY } });
    expect(done.code, done.stderr).toBe(0);
    const ids = jsonLines(readFileSync(out, 'utf8')).map((r) => r.id);
    expect(ids).toEqual(expectedFeed(sandbox, { now: FIXED_START }).map((r) => r.id));
    expect(readdirSync(dir)).toEqual([name]);
  });

  it("a plain name is quoted as before: 'my file.jsonl'", async () => {
    const out = path.join(tempDir('rf-resume-names-'), 'my file.jsonl');
    sandbox.setFaults({ failAfterPages: 2 });
    const first = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '50', '-o', out]);
    expect(first.code).toBe(6);
    expect(first.stderr).toContain(` -o '${out}' --resume\n`);
  });
});
