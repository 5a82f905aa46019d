// The operator surface's refusals and messages: -o and -f only where a command writes a file format (health and doctor
// refuse a compressed or foreign name as feed does; schema, completion and config refuse them), `cases show` and
// `cases verify` refuse the selection of `cases`, completion offers only what is taken, and the messages of
// `match --exit-code`, commander's parse errors and `sync -o` say what is so.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { withCheck, yoghurtWithBarcode } from '../helpers/barcodes.js';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 20, seed: 9 });
  dir = tempDir('rf-refusals-');
});

/** A usage error: exit 2, nothing on stdout, exactly these stderr lines, no request sent and no file written. */
async function refusedWith(args: string[], lines: (string | RegExp)[]) {
  sandbox.clearRequests();
  const before = readdirSync(dir).sort();
  const r = await runMainAgainst(sandbox, args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const said = r.stderr.split('\n').slice(0, -1);
  expect(said).toHaveLength(lines.length);
  for (const [i, line] of lines.entries()) expect(said[i]).toMatch(line);
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(sandbox.requests()).toEqual([]);
  expect(readdirSync(dir).sort()).toEqual(before);
}

const literal = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

describe('health and doctor refuse an -o name of a format they do not write, as feed does', () => {
  it.each([
    ['health', 'up.json.gz', 'gz'],
    ['health', 'up.tsv', 'tsv'],
    ['doctor', 'checks.json.gz', 'gz'],
    ['doctor', 'checks.xlsx', 'xlsx'],
  ])('%s -o %s: exit 2 before any request, no file', async (command, name, ext) => {
    const out = path.join(dir, name);
    const feed = await runMainAgainst(sandbox, ['feed', '-o', out]);
    expect(feed.code).toBe(2);
    const feedLines = feed.stderr.split('\n').slice(0, -1);
    expect(feedLines[0]).toBe(`error: recall-feed does not write .${ext} files (-o ${out})`);
    await refusedWith(
      [command, '-o', out],
      [literal(`error: recall-feed does not write .${ext} files (-o ${out})`), /^hint: /],
    );
    // The same error line as feed's, which names no command; the hint names the formats this command writes.
    const r = await runMainAgainst(sandbox, [command, '-o', out]);
    expect(r.stderr.split('\n')[0]).toBe(feedLines[0]);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['health', 'up.tsv'],
    ['doctor', 'checks.xlsx'],
  ])(
    '%s -o %s: the hint names only json and jsonl, the formats it writes, and each named one is written',
    async (command, name) => {
      const out = path.join(dir, name);
      const stem = out.slice(0, -path.extname(out).length);
      await refusedWith(
        [command, '-o', out],
        [
          literal(`error: recall-feed does not write ${path.extname(out)} files (-o ${out})`),
          literal(
            `hint: write json or jsonl (e.g. -o ${stem}.json), or say the format with -f to write it under that name anyway`,
          ),
        ],
      );
      // feed, which writes every record format, names them all.
      const feed = await runMainAgainst(sandbox, ['feed', '-o', out]);
      expect(feed.stderr.split('\n')[1]).toBe(
        `hint: write csv, json, jsonl or parquet (e.g. -o ${stem}.csv), or say the format with -f to write it under that name anyway`,
      );
      // Each format the hint names is one the command takes: its answer is written there.
      for (const ext of ['.json', '.jsonl']) {
        const file = `${stem}${ext}`;
        const r = await runMainAgainst(sandbox, [command, '-o', file]);
        expect(r.stderr, r.stderr).not.toMatch(/^(error|hint):/m);
        expect(r.stdout).toBe('');
        const text = readFileSync(file, 'utf8');
        if (ext === '.json') expect(JSON.parse(text)).toBeTypeOf('object');
        else for (const line of text.trimEnd().split('\n')) expect(JSON.parse(line)).toBeTypeOf('object');
        rmSync(file);
      }
    },
  );

  it("with -f the name is the user's: health -f json -o up.json.gz writes the JSON there", async () => {
    const out = path.join(dir, 'named.json.gz');
    const r = await runMainAgainst(sandbox, ['health', '-f', 'json', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ healthy: true, http_status: 200 });
  });
});

describe('a command that writes no file format refuses -o and -f', () => {
  it.each([
    [['schema', 'record', '-o', 'OUT/s.json'], 'schema', '-o'],
    [['-f', 'parquet', 'schema', 'record'], 'schema', '-f'],
    [['completion', 'bash', '-o', 'OUT/rf.bash'], 'completion', '-o'],
    [['config', 'list', '-o', 'OUT/config.txt'], 'config list', '-o'],
    [['-f', 'json', 'config', 'path'], 'config path', '-f'],
  ])('%j: exit 2, one error and its hint', async (args, command, flag) => {
    await refusedWith(
      args.map((a) => a.replace('OUT', dir)),
      [
        literal(`error: ${command} takes no ${flag}: it writes no file format, only to stdout`),
        literal(`hint: to keep what it prints, redirect it: recall-feed ${command} … > file`),
      ],
    );
  });

  it('-o - is stdout, where it writes anyway', async () => {
    const r = await runMain(['schema', 'record', '-o', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ $id: 'urn:recall-feed:schema:record:v2' });
  });
});

describe('cases show and cases verify refuse the selection of cases', () => {
  let db: string;
  const clock = fakeClock(FIXED_START);
  beforeAll(async () => {
    db = path.join(tempDir('rf-refusals-cases-'), 'a.db');
    const own = await sandboxFor({ recordCount: 0, seed: 3, clock: () => FIXED_START });
    const code = withCheck('356000000011');
    own.addRecords([yoghurtWithBarcode(code)]);
    expect((await runMainAgainst(own, ['sync', '--db', db], { clock })).code).toBe(0);
    const catalog = path.join(path.dirname(db), 'catalogue.csv');
    writeFileSync(catalog, `sku,ean\nA1,${code}\n`);
    const opened = await runMain(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases'], { clock });
    expect(opened.code, opened.stderr).toBe(0);
  });

  it.each([
    [
      ['cases', 'show', '1', '--level', 'bogus', '--severity', 'nonsense'],
      'show',
      '--level',
      'it shows the cases named by id',
    ],
    [['cases', '--status', 'closed', 'show', '1'], 'show', '--status', 'it shows the cases named by id'],
    [['cases', 'verify', '--status', 'closed', '--overdue'], 'verify', '--status', 'it checks the whole case log'],
    [['cases', 'verify', '--alert-status', 'active'], 'verify', '--alert-status', 'it checks the whole case log'],
  ])('%j: exit 2, one line', async (args, sub, flag, why) => {
    const r = await runMain([...args, '--db', db, '-f', 'jsonl'], { clock });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: cases ${sub} does not take ${flag}: ${why}\n`);
  });

  it("without a selection both still run (the parent's --db is theirs)", async () => {
    const shown = await runMain(['cases', 'show', '1', '--db', db, '-f', 'jsonl'], { clock });
    expect(shown.code, shown.stderr).toBe(0);
    expect(jsonLines(shown.stdout)).toHaveLength(1);
    const verified = await runMain(['cases', 'verify', '--db', db, '-f', 'jsonl'], { clock });
    expect(verified.code, verified.stderr).toBe(0);
  });
});

describe('completion offers -o, -f and the selection only where they are taken', () => {
  /** The flags the bash script's lookup offers at a command path (its `_recall_feed_flags` arm). */
  async function bashFlags(commandPath: string): Promise<string[]> {
    const script = (await runMain(['completion', 'bash'])).stdout;
    const body = script.slice(script.indexOf('_recall_feed_flags() {'));
    const key = commandPath.includes(' ') ? `'${commandPath}'` : commandPath;
    const arm = body.split('\n').find((l) => l.startsWith(`    ${key}) printf '%s\\n' `));
    expect(arm, commandPath).toBeDefined();
    const list = (arm as string).slice(`    ${key}) printf '%s\\n' `.length).replace(/ ;;$/, '');
    return list.replace(/^'|'$/g, '').split(' ');
  }

  it('bash: -o and -f not on schema, completion or config; on feed, health and doctor', async () => {
    for (const command of ['schema', 'completion', 'config', 'config list', 'config path']) {
      const flags = await bashFlags(command);
      expect(flags, command).toContain('--help');
      for (const flag of ['-o', '--output', '-f', '--format']) expect(flags, command).not.toContain(flag);
    }
    for (const command of ['feed', 'health', 'doctor', 'cases show'])
      expect(await bashFlags(command), command).toEqual(expect.arrayContaining(['-o', '--output', '-f', '--format']));
  });

  it('bash: the selection of cases not on cases show or verify; on cases and its steps', async () => {
    const selection = ['--status', '--level', '--overdue', '--severity', '--alert-status', '--grep'];
    for (const command of ['cases show', 'cases verify']) {
      const flags = await bashFlags(command);
      expect(flags, command).toContain('--db');
      for (const flag of selection) expect(flags, command).not.toContain(flag);
    }
    for (const command of ['cases', 'cases resolve'])
      expect(await bashFlags(command), command).toEqual(expect.arrayContaining(selection));
  });

  it('zsh and fish leave them out too', async () => {
    const zshScript = (await runMain(['completion', 'zsh'])).stdout;
    const zsh = zshScript.slice(zshScript.indexOf('_recall_feed_describe_flags() {')).split('\n');
    const zshArm = (key: string) => zsh.find((l) => l.startsWith(`    ${key}) items=(`)) as string;
    expect(zshArm('schema')).not.toContain("'--output:");
    expect(zshArm("'cases verify'")).not.toContain("'--level:");
    expect(zshArm('cases')).toContain("'--level:");
    const fish = (await runMain(['completion', 'fish'])).stdout.split('\n');
    const level = fish.filter((l) => / -l level /.test(l) && l.includes("-n '__fish_seen_subcommand_from cases"));
    expect(level).toHaveLength(1);
    expect(level[0]).toMatch(/-n '__fish_seen_subcommand_from cases; and not __fish_seen_subcommand_from show verify'/);
    const output = fish.filter((l) => / -l output /.test(l));
    expect(output).toHaveLength(1);
    expect(output[0]).toMatch(/-n 'not __fish_seen_subcommand_from [a-z ]*\bschema\b[a-z ]*' /);
    expect(output[0]).toMatch(/\bconfig\b/);
    expect(output[0]).not.toMatch(/\b(feed|health|doctor)\b[a-z ]*'/);
  });
});

describe('messages', () => {
  it('match --exit-code pings the monitor with the count the summary gives: matches, not catalogue rows', async () => {
    const own = await sandboxFor({ recordCount: 0, seed: 4 });
    const code = withCheck('356000000021');
    // One catalogue row, two recalls carrying its barcode: two matches of one row.
    own.addRecords([yoghurtWithBarcode(code), yoghurtWithBarcode(code)]);
    const catalog = path.join(dir, 'one-row.csv');
    writeFileSync(catalog, `sku,ean\nA1,${code}\n`);
    const hc = await receivingServer('OK');
    const r = await runMainAgainst(own, [
      'match',
      '--catalog',
      catalog,
      '-f',
      'jsonl',
      '--exit-code',
      '--monitor',
      `${hc.url}/ping/m`,
      // The last line (the counts) is said off a terminal too.
      '-v',
    ]);
    expect(r.code, r.stderr).toBe(8);
    const rows = jsonLines(r.stdout).filter((row) => row.level === 'match');
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((row) => row.catalog_line)).size).toBe(1);
    expect(r.stderr).toContain(' · 2 matches · ');
    const fail = hc.received.find((p) => p.url === '/ping/m/fail');
    expect(fail?.body).toMatch(/^recall-feed match: exit code 8: 2 matches in \d+\.\d s; fetched 2\n/);
  });

  it('a mistyped option: the suggestion is a hint line in text, and a hints entry with exit_code in a JSON log', async () => {
    const text = await runMain(['feed', '--hous', '2']);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe("error: unknown option '--hous'\nhint: did you mean --hours?\n");
    const command = await runMain(['fed']);
    expect(command.stderr).toBe("error: unknown command 'fed'\nhint: did you mean feed?\n");

    const json = await runMain(['--log-format', 'json', 'feed', '--hous', '2']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    const records = json.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      level: 'error',
      msg: "unknown option '--hous'",
      exit_code: 2,
      hints: ['did you mean --hours?'],
    });
    // Without a suggestion: exit_code and an empty hints list, as every other error.
    const plain = await runMain(['--log-format', 'json', 'feed', '--zzzzzzzz']);
    expect(JSON.parse(plain.stderr.trim())).toMatchObject({
      level: 'error',
      msg: "unknown option '--zzzzzzzz'",
      exit_code: 2,
      hints: [],
    });
  });

  it('sync -o says what it writes there: JSON, by -f json or jsonl or by the name', async () => {
    await refusedWith(
      ['sync', '--db', path.join(dir, 'a.db'), '-o', path.join(dir, 's.log')],
      [
        literal(
          'error: sync writes its summary to -o only as JSON: with -f json or -f jsonl, or to a file named .json, .jsonl or .ndjson',
        ),
      ],
    );
    const out = path.join(dir, 'sync.jsonl');
    const ok = await runMainAgainst(sandbox, ['sync', '--db', path.join(dir, 'b.db'), '-o', out]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ fetched: 20 });
  });
});
