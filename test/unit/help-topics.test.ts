// `recall-feed help environment|exit-codes|formats`, in process: the topics, and the root help's lists, from their one source each.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { answerWithoutRunning } from '../../src/cli/main.js';
import type { Context } from '../../src/runtime/context.js';
import { runMain } from '../helpers/in-process.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Every RECALL_FEED_* name the sources read from the environment, found by reading them (not from the topic). */
function recallFeedVariables(): string[] {
  const names = new Set<string>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    for (const m of text.matchAll(/env(?:\.|\[')(RECALL_FEED_[A-Z_]+|DEEPRECALL_[A-Z_]+)/g)) names.add(m[1] as string);
    // The settings table's variables, which settings.ts reads by the table's names.
    for (const m of text.matchAll(/env: \[([^\]]*)\]/g)) {
      for (const name of m[1]!.matchAll(/'([A-Z_]+)'/g)) names.add(name[1] as string);
    }
  }
  return [...names].sort();
}

describe('help topics', () => {
  it('exit-codes lists every code with its meaning, in order', async () => {
    const r = await runMain(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const codes = [...r.stdout.matchAll(/^ {2}\s*(\d+) {2}\S/gm)].map((m) => Number(m[1]));
    expect(codes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 130]);
    expect(r.stdout).toMatch(/^ {4}9 {2}busy: another run holds the output or state file/m);
    // The errors behind each code are generated into the docs from the error table (error-table.test.ts).
    expect(r.stdout).toContain('The error classes behind each code: docs/exit-codes.md.');
  });

  it('formats lists each format with what it can do', async () => {
    const r = await runMain(['help', 'formats']);
    expect(r.code).toBe(0);
    for (const f of ['table', 'jsonl', 'json', 'csv', 'parquet'])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${f} `, 'm'));
    expect(r.stdout).toMatch(/parquet .*\n\s+\(needs -o <file>, binary; -o \.parquet\)/);
    expect(r.stdout).toMatch(/csv .*\n\s+\(streams, --append, --resume; -o \.csv\)/);
    // The formats digest and report check -f against (test/behaviour/format-choices.test.ts), in their help's order.
    expect(r.stdout).toContain('digest (text, markdown, html, json) and report (html, json, csv, markdown)');
  });

  it('environment names every RECALL_FEED_ variable the sources read', async () => {
    const r = await runMain(['help', 'environment']);
    expect(r.code).toBe(0);
    const read = recallFeedVariables();
    expect(read).toContain('RECALL_FEED_API_KEY');
    for (const name of read) expect(r.stdout, name).toContain(name);
  });

  it('the root help lists the topics and the exit codes; an unknown topic is a usage error', async () => {
    const root = await runMain(['--help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain('  recall-feed help exit-codes   what each exit code means');
    const flat = root.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('Exit codes (recall-feed help exit-codes): 0 ok (also no results), 1 unexpected, 2 usage,');
    expect(flat).toContain(
      '14 archive file damaged, 15 doctor: warnings only, 16 doctor: a check failed, 17 SQLite driver cannot be loaded (reinstall), 130 interrupted.',
    );
    const unknown = await runMain(['help', 'nosuch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
  });

  it('help <typo> says what it is not and the nearest names, not the whole help (exit 2)', async () => {
    for (const [word, near] of [
      ['environmnet', 'environment'],
      ['fed', 'feed'],
      ['exitcodes', 'exit-codes'],
      ['cases', undefined],
    ] as const) {
      const r = await runMain(['help', word]);
      if (near === undefined) {
        // A command: its own help.
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^Usage: recall-feed cases /);
        continue;
      }
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: unknown command or help topic '${word}'\nhint: did you mean ${near}?\n`);
    }
    const far = await runMain(['help', 'xyzzy']);
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(
      /^error: unknown command or help topic 'xyzzy'\nhint: the commands: feed, sources, .*; the help topics: environment, exit-codes, formats\n$/,
    );
  });

  it('a flag beside the word changes nothing: help exit-codes -q is the topic, help fed -q the typo', async () => {
    const topic = await runMain(['help', 'exit-codes', '-q']);
    expect(topic.code).toBe(0);
    expect(topic.stdout).toBe((await runMain(['help', 'exit-codes'])).stdout);
    const typo = await runMain(['help', 'fed', '-q']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("error: unknown command or help topic 'fed'\nhint: did you mean feed?\n");
  });

  it('help <command> <subcommand> is the help of the subcommand, as its --help prints it (main and the front)', async () => {
    const own = await runMain(['config', 'set', '--help']);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/^Usage: recall-feed config set \[options\] <key> \[value\]\n/);
    const help = await runMain(['help', 'config', 'set']);
    expect(help).toMatchObject({ code: 0, stdout: own.stdout, stderr: '' });
    const cases = await runMain(['help', 'cases', 'resolve']);
    expect(cases.stdout).toMatch(/^Usage: recall-feed cases resolve /);
    // A word that is no subcommand leaves the command's own help, as before.
    expect((await runMain(['help', 'config', 'nosuch'])).stdout).toBe((await runMain(['config', '--help'])).stdout);
    const stdout = new PassThrough();
    const ctx = { stdout, stderr: new PassThrough(), env: {}, now: Date.now } as unknown as Context;
    expect(await answerWithoutRunning(['help', 'config', 'set'], ctx)).toBe(0);
    expect(String(stdout.read())).toBe(own.stdout);
  });

  it('help after global flags is the same help: a subcommand, a topic, in main and the front', async () => {
    const own = (await runMain(['config', 'set', '--help'])).stdout;
    for (const lead of [['--profile', 'prod'], ['-v'], ['--sandbox']]) {
      const help = await runMain([...lead, 'help', 'config', 'set']);
      expect(help, lead.join(' ')).toMatchObject({ code: 0, stdout: own, stderr: '' });
      const stdout = new PassThrough();
      const ctx = { stdout, stderr: new PassThrough(), env: {}, now: Date.now } as unknown as Context;
      expect(await answerWithoutRunning([...lead, 'help', 'config', 'set'], ctx)).toBe(0);
      expect(String(stdout.read())).toBe(own);
    }
    const topic = (await runMain(['help', 'formats'])).stdout;
    expect(topic).not.toMatch(/^Usage:/);
    expect(await runMain(['--sandbox', 'help', 'formats'])).toMatchObject({ code: 0, stdout: topic, stderr: '' });
  });

  it("the launcher's help front leaves help <typo> to main(), having written nothing", async () => {
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    const ctx = { stdout, stderr, env: {}, now: Date.now } as unknown as Context;
    expect(await answerWithoutRunning(['help', 'fed'], ctx)).toBeUndefined();
    expect([stdout.read(), stderr.read()]).toEqual([null, null]);
    expect(await answerWithoutRunning(['help', 'formats'], ctx)).toBe(0);
    expect(String(stdout.read())).toMatch(/^Record formats/);
  });
});
