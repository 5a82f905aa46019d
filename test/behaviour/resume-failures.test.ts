// A `--resume` that fails for any reason keeps `<file>.partial` and `<file>.partial.json` and prints the command again;
// one whose kept cursor the API refuses starts the window over instead of failing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { printedCommand } from '../helpers/shell-words.js';

const KEY = { RECALL_FEED_API_KEY: DEMO_KEYS.all.key };

/** An export to `-o` that failed after 2 pages, leaving its partial files and a resume command. */
async function interruptedExport(s: Sandbox) {
  const dir = tempDir('rf-resume-');
  const target = path.join(dir, 'export.csv');
  s.setFaults({ failAfterPages: 2, failMode: 'error503' });
  const first = await runMainAgainst(s, ['--retries', '0', 'feed', '--page-size', '100', '-o', target]);
  expect(first.code).toBe(6);
  s.setFaults({});
  const files = () => ({
    names: readdirSync(dir).sort(),
    partial: readFileSync(`${target}.partial`, 'utf8'),
    state: readFileSync(`${target}.partial.json`, 'utf8'),
  });
  return { dir, target, command: printedCommand(first.stderr), files };
}

describe('a failed --resume', () => {
  it('with a wrong key (exit 3) keeps both partial files as they were and prints the command again', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interruptedExport(sandbox);
    const before = run.files();
    expect(before.names).toEqual(['export.csv.partial', 'export.csv.partial.json']);

    const wrong = await runMain(run.command, {
      env: { RECALL_FEED_API_KEY: 'dr_test_wrong000000000000000000000000000000000' },
    });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/^error: the API rejected the key/);
    expect(wrong.stderr).toMatch(
      /hint: .*export\.csv is unchanged; 200 records are kept in .*export\.csv\.partial\. To finish, run:/,
    );
    expect(printedCommand(wrong.stderr)).toEqual(run.command);
    expect(run.files()).toEqual(before);

    // The right key finishes it: the same bytes as one whole export, and nothing left behind.
    const done = await runMain(run.command, { env: KEY });
    expect(done.code).toBe(0);
    const whole = await runMainAgainst(sandbox, ['feed', '-f', 'csv', '--page-size', '100']);
    expect(readFileSync(run.target, 'utf8')).toBe(whole.stdout);
    expect(readdirSync(run.dir)).toEqual(['export.csv']);
  });

  it('with a cursor the API now refuses, starts the window over, skipping what the partial holds, and finishes', async () => {
    const sandbox = await sandboxFor({ clock: () => FIXED_START });
    const run = await interruptedExport(sandbox);
    // What an expired cursor looks like to the tool: the API answers 400 to it. The partial's cursor is the
    // tool's own, not the user's input: the window starts over (it used to stop with exit 2, and its
    // resume command failed the same way every time).
    const state = JSON.parse(run.files().state) as Record<string, unknown>;
    writeFileSync(
      `${run.target}.partial.json`,
      `${JSON.stringify({ ...state, cursor: Buffer.from('{"expired":true}').toString('base64') })}\n`,
    );
    sandbox.clearRequests();

    const resumed = await runMain(run.command, { env: KEY });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(
      /^recall-feed: the API refused the cursor \(Invalid cursor: [^)]*\); starting over from the first page, skipping the recalls already written\n$/,
    );
    const asked = sandbox.requests();
    expect(asked[0]?.status).toBe(400);
    expect(asked[1]?.query.cursor).toBeUndefined();
    expect(asked.slice(1).every((r) => r.status === 200)).toBe(true);
    const whole = await runMainAgainst(sandbox, ['feed', '-f', 'csv', '--page-size', '100']);
    expect(readFileSync(run.target, 'utf8')).toBe(whole.stdout);
    expect(readdirSync(run.dir)).toEqual(['export.csv']);
  });
});
