// What a successful run says on stderr: nothing off a terminal (cron mails only problems); on a terminal, or
// with -v, one line saying what was written where.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('a run that succeeded', () => {
  it('-o: silent off a terminal; "wrote N recalls to FILE" on one or with -v; nothing with -q', async () => {
    const sandbox = await sandboxFor();
    const out = path.join(tempDir(), 'recalls.csv');
    const offTerminal = await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', out]);
    expect(offTerminal).toMatchObject({ code: 0, stderr: '' });
    const onTerminal = await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', out], { stderrIsTTY: true });
    expect(onTerminal.stderr).toBe(`wrote 3 recalls to ${out}\n`);
    expect(lines(readFileSync(out, 'utf8'))).toHaveLength(4);
    const verbose = await runMainAgainst(sandbox, ['-v', 'feed', '--max', '1', '-o', out]);
    expect(lines(verbose.stderr).at(-1)).toBe(`wrote 1 recall to ${out}`);
    const quiet = await runMainAgainst(sandbox, ['-q', 'feed', '--max', '1', '-o', out], { stderrIsTTY: true });
    expect(quiet.stderr).toBe('');
    const toStdout = await runMainAgainst(sandbox, ['feed', '--max', '1'], { stderrIsTTY: true });
    expect(toStdout.stderr).toBe('');
    // `-o -` is stdout: no "wrote 1 recall to -" line.
    const dash = await runMainAgainst(sandbox, ['feed', '--max', '1', '-o', '-'], { stderrIsTTY: true });
    expect(dash).toMatchObject({ code: 0, stderr: '' });
    expect(lines(dash.stdout)).toHaveLength(1);
  });

  it('--state: silent off a terminal; on one, how many were new and how many ids the state holds', async () => {
    const sandbox = await sandboxFor();
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'new.jsonl');
    const cron = await runMainAgainst(sandbox, ['feed', '--state', state, '-o', out]);
    expect(cron).toMatchObject({ code: 0, stderr: '' });
    const remembered = `${lines(readFileSync(out, 'utf8')).length.toLocaleString('en-US')} ids remembered in ${state}`;
    const again = await runMainAgainst(sandbox, ['feed', '--state', state, '-o', out], { stderrIsTTY: true });
    expect(again.stderr).toBe(`wrote 0 new recalls to ${out}; ${remembered}\n`);
    const toStdout = await runMainAgainst(sandbox, ['feed', '--state', state], { stderrIsTTY: true });
    expect(toStdout.stderr).toBe(`0 new recalls; ${remembered}\n`);
    const dash = await runMainAgainst(sandbox, ['feed', '--state', state, '-o', '-'], { stderrIsTTY: true });
    expect(dash.stderr).toBe(`0 new recalls; ${remembered}\n`);
  });

  it('sources -o on a terminal says how many sources went where', async () => {
    const sandbox = await sandboxFor();
    const out = path.join(tempDir(), 'sources.json');
    const r = await runMainAgainst(sandbox, ['sources', '-o', out], { stderrIsTTY: true });
    const count = (JSON.parse(readFileSync(out, 'utf8')) as unknown[]).length;
    expect(r.stderr).toBe(`wrote ${count} data sources to ${out}\n`);
  });
});
