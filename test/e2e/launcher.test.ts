// The launcher (bin/recall-feed.cjs) as a real process: help from the CommonJS front (dist/cli/front.cjs) is the answer
// main() gives, a run that only mentions a help word is handed to main() untouched; main()'s exit code becomes the
// process's; with --log-format json nothing but JSON lines reaches the real stderr.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ALL_KEY, BIN, cleanEnv, ROOT, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process.js';

describe('help from the CommonJS front', () => {
  it.each([
    [['--help']],
    [['feed', '--help']],
    [['help', 'config']],
    [['help', 'exit-codes']],
    [['help', 'formats']],
    [['help', 'environment']],
    [['config', '--help']],
    [['cases', '-h']],
    [['help']],
    [[]],
    [['feeed', '-h']],
    [['feed', '--nope', '--help']],
    [['completion', '--help']],
    // `help` is a profile's name here: feed would run, so main() takes over and refuses --hours 0.
    [['--profile', 'help', 'feed', '--hours', '0']],
    // ... and here a command runs: main() prints the config path.
    [['--profile', 'help', 'config', 'path']],
    [['-h', 'config', 'path']],
  ])('%j: the same stdout, stderr and exit code as main() in-process', async (argv) => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-front-') };
    const [spawned, inProcess] = await Promise.all([runCli(argv, { env }), runMain(argv, { env })]);
    expect(spawned.stdout).toBe(inProcess.stdout);
    expect(spawned.stderr).toBe(inProcess.stderr);
    expect(spawned.exitCode).toBe(inProcess.code);
    // Something was said: a help page, a usage error or the command's own output.
    expect(`${spawned.stdout}${spawned.stderr}`.length).toBeGreaterThan(0);
  });

  it('a command that runs is handed over once: config path prints one line', async () => {
    const dir = tempDir('rf-front-');
    const r = await runCli(['--profile', 'help', 'config', 'path'], { env: { RECALL_FEED_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toContain(dir);
  });

  // The front (and the launcher's --version) writes to a file, a pipe or /dev/null with fs.writeSync,
  // without Node's stream.
  it('written to a file: the same help as main() in-process', async () => {
    const file = path.join(tempDir('rf-front-'), 'help.txt');
    const r = await execa('bash', ['-c', 'node "$0" feed --help > "$1"', BIN, file], {
      reject: false,
      extendEnv: false,
      env: cleanEnv(),
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(readFileSync(file, 'utf8')).toBe((await runMain(['feed', '--help'])).stdout);
  });

  it.each([['--help'], ['--version']])(
    '%s into a pipe its reader has closed: exit 0 and nothing on stderr',
    async (flag) => {
      const r = await execa('bash', ['-c', 'node "$0" "$1" | true; echo "$PIPESTATUS"', BIN, flag], {
        reject: false,
        extendEnv: false,
        env: cleanEnv(),
      });
      expect(r.stdout).toBe('0');
      expect(r.stderr).toBe('');
    },
  );

  it.each([['--version'], ['feed', '--help'], ['feed', '--sandbox', '--max', '1']])(
    '%j onto a full disk (/dev/full): one line on stderr, exit 10, no stack trace',
    async (...args) => {
      const r = await execa('bash', ['-c', 'node "$@" > /dev/full', 'bash', BIN, ...args], {
        reject: false,
        extendEnv: false,
        env: cleanEnv({ HOME: tempDir('rf-full-') }),
      });
      expect(r.exitCode).toBe(10);
      expect(r.stderr).toMatch(/^error: cannot write the output: the disk is full($|\nhint: )/);
      expect(r.stderr).not.toContain(' at ');
    },
  );

  it.each([['--version'], ['-V']])('%s prints the version package.json gives, and exits 0', async (flag) => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const r = await runCli([flag]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
    expect(r.stderr).toBe('');
  });
});

describe('exit codes of the real process (the rest: test/behaviour/cli-exit-codes.test.ts)', () => {
  it('an invalid key exits 3 without printing it', async () => {
    const sandbox = await sandboxFor({ recordCount: 20 });
    const key = 'dr_live_thisisnotavalidkeyatall0000000000000000';
    const r = await runCli(['--base-url', sandbox.url, 'feed'], { env: { RECALL_FEED_API_KEY: key } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: the API rejected the key: /);
    expect(r.stderr).not.toContain(key);
    expect(r.stdout).toBe('');
  });

  it('an unreachable API exits 6', async () => {
    const r = await runCli(['--base-url', 'http://127.0.0.1:9', '--retries', '0', 'feed'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/^error: connection refused by 127\.0\.0\.1:9\n/);
  });
});

describe('--log-format json from the real process (the rest: test/behaviour/ops-json-logs.test.ts)', () => {
  /** Every line of `stderr` one JSON log record. */
  function parseLines(stderr: string): { level: string; msg: string; [field: string]: unknown }[] {
    const lines = stderr.split('\n');
    expect(lines.pop()).toBe('');
    return lines.map((l) => {
      const o = JSON.parse(l) as { time: string; level: string; msg: string };
      expect(Number.isNaN(Date.parse(o.time))).toBe(false);
      expect(['debug', 'info', 'warn', 'error']).toContain(o.level);
      expect(typeof o.msg).toBe('string');
      return o;
    });
  }

  it('the built CLI, spawned: a sync with -v writes only JSON lines on stderr, the summary as an info record', async () => {
    const sandbox = await sandboxFor({ recordCount: 30, seed: 7 });
    const db = path.join(tempDir('rf-jsonlog-'), 'r.db');
    const r = await runAgainst(sandbox, ['--log-format', 'json', '-v', 'sync', '--db', db]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const logs = parseLines(r.stderr);
    expect(logs.some((l) => l.level === 'debug' && l.path === '/v1/recalls/feed')).toBe(true);
    expect(logs.at(-1)).toMatchObject({ level: 'info' });
    expect(logs.at(-1)?.msg).toMatch(/^fetched 30 · 30 new · 0 updated · archive: 30 recalls/);
  });
});
