// Each command writes its own formats (issue 27): -f and the -o extension are checked against them, before any request.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const RECORD = ['table', 'jsonl', 'json', 'csv', 'parquet'];
const DIGEST = ['text', 'markdown', 'html', 'json'];
const REPORT = ['html', 'json', 'csv', 'markdown'];

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 5, clock: () => FIXED_START });
  dir = tempDir();
});
afterAll(() => sandbox.close());

/** Runs `args` and checks it was a usage error that sent nothing and wrote nothing into the folder. */
async function refused(args: string[]): Promise<string> {
  const r = await runMainAgainst(sandbox, args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(sandbox.requests()).toEqual([]);
  expect(readdirSync(dir)).toEqual([]);
  return r.stderr;
}

describe('-f is checked against the formats the command writes', () => {
  it('a record command refuses a digest or report format, the flag before or after the command name', async () => {
    expect(await refused(['feed', '-f', 'markdown'])).toMatch(
      `error: --format must be one of ${RECORD.join(', ')}, not 'markdown'`,
    );
    expect(await refused(['-f', 'html', 'sources'])).toMatch(`error: --format must be one of ${RECORD.join(', ')}`);
    expect(await refused(['sync', '-f', 'csv'])).toMatch("error: --format must be one of json, jsonl, not 'csv'");
    const db = path.join(dir, 'a.db');
    expect(await refused(['cases', 'show', '1', '--db', db, '-f', 'parquet'])).toMatch(
      "error: --format must be one of table, jsonl, json, csv, not 'parquet'",
    );
  });

  it('digest and report refuse a record format they do not write', async () => {
    const db = path.join(dir, 'a.db');
    expect(await refused(['digest', '--db', db, '-f', 'parquet'])).toMatch(
      `error: --format must be one of ${DIGEST.join(', ')}, not 'parquet'`,
    );
    expect(await refused(['-f', 'table', 'report', '--db', db])).toMatch(
      `error: --format must be one of ${REPORT.join(', ')}, not 'table'`,
    );
    expect(await refused(['-f', 'csv', 'digest', '--db', db])).toMatch('error: --format must be one of');
  });

  it('-o report.parquet is refused where parquet is not written: report, digest, cases show', async () => {
    const out = path.join(dir, 'report.parquet');
    const db = path.join(dir, 'a.db');
    for (const args of [['report'], ['digest'], ['cases', 'show', '1']]) {
      const err = await refused([...args, '--db', db, '-o', out]);
      expect(err).toMatch(
        `error: ${args
          .slice(0, 2)
          .filter((a) => a !== '1')
          .join(' ')} does not write .parquet files`,
      );
      expect(existsSync(out)).toBe(false);
    }
    expect(await refused(['feed', '-o', path.join(dir, 'r.md')])).toMatch('error: feed does not write .md files');
    expect(await refused(['sync', '--db', path.join(dir, 'a.db'), '-o', path.join(dir, 's.csv')])).toMatch(
      'error: sync does not write .csv files',
    );
  });

  it('-o x.xlsx or x.html.gz is refused by digest and report, as by a record command (they wrote text into it)', async () => {
    const db = path.join(dir, 'a.db');
    for (const [command, name] of [
      ['digest', 'week.xlsx'],
      ['report', 'evidence.xlsx'],
      ['report', 'evidence.html.gz'],
      ['digest', 'week.ods'],
      ['report', 'evidence.pdf'],
      ['digest', 'week.docx'],
    ] as const) {
      const ext = path.extname(name);
      expect(await refused([command, '--db', db, '-o', path.join(dir, name)])).toMatch(
        new RegExp(`^error: ${command} does not write \\${ext} files .*\nhint: it writes `),
      );
    }
  });

  it('.txt names any text: a record command still writes its usual format under it', async () => {
    const out = path.join(tempDir(), 'recalls.txt');
    const r = await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id).length,
    ).toBe(2);
  });
});

describe('help', () => {
  const commands: [string[], string[]][] = [
    [['feed'], RECORD],
    [['sources'], RECORD],
    [['query'], RECORD],
    [['show'], RECORD],
    [['stats'], RECORD],
    [['match'], RECORD],
    [['cases'], RECORD],
    [
      ['cases', 'show'],
      ['table', 'jsonl', 'json', 'csv'],
    ],
    [
      ['cases', 'verify'],
      ['table', 'jsonl', 'json'],
    ],
    [['doctor'], ['table', 'json', 'jsonl']],
    [['health'], ['table', 'json', 'jsonl']],
    [['sync'], ['json', 'jsonl']],
    [['digest'], DIGEST],
    [['report'], REPORT],
  ];
  it.each(commands)('%s --help lists its formats', async (cmd, formats) => {
    const r = await runMainAgainst(sandbox, [...cmd, '--help']);
    expect(r.code).toBe(0);
    const line = r.stdout.replace(/\s+/g, ' ').match(/Formats \(-f\):([^.]*)/)?.[1] ?? '';
    for (const f of formats) expect(line).toContain(f);
    if (formats.length < RECORD.length) expect(line).not.toContain('parquet');
  });
});
