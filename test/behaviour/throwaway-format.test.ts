// A format added as one file and one registration reaches every record command: -f tsv and -o x.tsv, the help and
// the completion, with no command or job naming it (the registry, src/output/format-registry.ts, is the one place).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommands } from '../../src/cli/format-choices.js';
import { commandTree } from '../../src/cli/main.js';
import { registerFormat } from '../../src/output/format-registry.js';
import type { Context } from '../../src/runtime/context.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tsvFormat, tsvRenders } from '../fixtures/tsv-format.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-throwaway-format-');
const db = path.join(dir, 'a.db');
const catalog = path.join(dir, 'products.csv');
let sandbox: Sandbox;
let unregister: () => void;
let someId = '';

const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(FIXED_START) });

/** How to run each record command so that it has rows to write; its -f or -o is added. */
const RUNS: Record<string, () => string[]> = {
  feed: () => ['feed'],
  sources: () => ['sources'],
  query: () => ['query', '--db', db],
  show: () => ['show', someId, '--db', db],
  stats: () => ['stats', '--db', db],
  match: () => ['match', '--catalog', catalog],
  cases: () => ['cases', '--db', db, '--status', 'all'],
};

/** The commands that write the new format, from the command tree as the CLI builds it. */
async function commandsWritingTsv(): Promise<string[]> {
  const sink = new Writable({ write: (_chunk, _enc, done) => done() });
  const ctx: Context = {
    stdout: sink,
    stderr: sink,
    stdin: undefined as unknown as Context['stdin'],
    env: {},
    now: () => FIXED_START,
    sleep: async () => {},
    signal: new AbortController().signal,
  };
  const tree = await commandTree(ctx);
  return formatCommands(tree)
    .filter((c) => c.kind === 'record' && c.formats.includes(tsvFormat.name))
    .map((c) => c.path);
}

beforeAll(async () => {
  unregister = registerFormat(tsvFormat);
  sandbox = await sandboxFor({ recordCount: 10, seed: 4, clock: () => FIXED_START });
  sandbox.addRecords([
    {
      alert_title: 'Yaourt nature',
      risk_severity: 'low',
      standard_identifiers_and_barcodes: ['3564709006031 V028 Date de durabilité minimale 04/04/2021'],
    },
  ]);
  writeFileSync(catalog, ['sku,ean,name,lot', 'A,3564709006031,Nature-in-lot,V028'].join('\n'));
  expect((await run(['sync', '--db', db])).code).toBe(0);
  const opened = await run(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases', '-f', 'jsonl']);
  expect(opened.code, opened.stderr).toBe(0);
  const listed = await run(['query', '--db', db, '-f', 'jsonl']);
  someId = String(jsonLines(listed.stdout)[0]?.id);
});
afterAll(async () => {
  unregister();
  await sandbox.close();
});

describe('a format registered once', () => {
  it('is written by every record command the tree declares, under -f and under its -o extension alike', async () => {
    const commands = await commandsWritingTsv();
    // Every command that writes all record formats: feed and the archive's and the cases' listings at least.
    expect(commands).toEqual(expect.arrayContaining(['feed', 'query', 'cases']));
    let written = 0;
    for (const command of commands) {
      const args = RUNS[command];
      expect(args, `${command}: add how to run it to RUNS`).toBeDefined();
      if (!args) continue;
      const before = tsvRenders.length;
      const byFlag = await run([...args(), '-f', 'tsv']);
      expect(byFlag.code, `${command}: ${byFlag.stderr}`).toBe(0);
      // Reached the format's renderer, which wrote a tab-separated header and rows.
      expect(tsvRenders.length, command).toBe(before + 1);
      expect(tsvRenders.at(-1)?.rows, command).toBeGreaterThan(0);
      const lines = byFlag.stdout.trimEnd().split('\n');
      expect(lines.length, command).toBe((tsvRenders.at(-1)?.rows ?? 0) + 1);
      expect(lines[0], command).toContain('\t');

      const file = path.join(dir, `${command}.tsv`);
      const byExtension = await run([...args(), '-o', file]);
      expect(byExtension.code, `${command}: ${byExtension.stderr}`).toBe(0);
      expect(byExtension.stdout).toBe('');
      expect(tsvRenders.length, command).toBe(before + 2);
      expect(readFileSync(file, 'utf8'), command).toBe(byFlag.stdout);
      written++;
    }
    expect(written).toBe(commands.length);
  });

  it('is listed by help formats, each record command help, and -f completion', async () => {
    const topic = await runMain(['help', 'formats']);
    expect(topic.stdout).toMatch(/^ {2}tsv +tab-separated values \(a test fixture\)\n\s+\(streams; -o \.tsv\)/m);
    const help = await runMain(['feed', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/Formats \(-f\): table, jsonl, json, csv, parquet, tsv;.*\.tsv\)/);
    const fish = await runMain(['completion', 'fish']);
    expect(fish.stdout).toMatch(/-l format .*'table jsonl json csv parquet tsv'/);
  });

  it("is refused, with the registry's formats named, where a command does not write it", async () => {
    const r = await run(['sync', '--db', db, '-f', 'tsv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--format must be one of json, jsonl, not 'tsv'");
  });
});
