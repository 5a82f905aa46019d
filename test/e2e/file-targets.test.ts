// Files written by a real process: `feed -o` to /dev/stdout and /dev/fd/1, relative folder names against a working
// directory, read-only folders as nobody; `feed --state` under a file-size limit (ulimit -f), where the state is staged
// before the output is committed; --metrics-file under a strict umask. Symlinks, modes, long names, /dev/null, /dev/full,
// FIFOs and the rest of --state run in process (test/behaviour/feed-targets.test.ts, feed-state.test.ts).
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import {
  ALL_KEY,
  BIN,
  cleanEnv,
  FIXED_START,
  lines,
  ROOT,
  runAgainst,
  runCli,
  sandboxFor,
  tempDir,
} from '../helpers/cli.js';

let sandbox: Sandbox;
let piped30: string;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 3, clock: () => FIXED_START });
  piped30 = (await runAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl'])).stdout;
});
afterAll(() => sandbox.close());

const scratch = () => tempDir('rf-targets-');

// Root writes and reads anywhere: then the CLI runs as nobody, which is what a cron user meets.
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
// nobody must be able to run this checkout (a clone in a 0700 temp folder is out of its reach).
const nobodyCanRun =
  !asRoot || execaSync('node', [BIN, '--version'], { reject: false, uid: NOBODY, gid: NOBODY }).exitCode === 0;

describe('devices, pipes and stdout are written through, never replaced', () => {
  it('-o /dev/stdout, /dev/fd/1 and - deliver every line to the pipe', async () => {
    for (const target of ['/dev/stdout', '/dev/fd/1', '-']) {
      const r = await runAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl', '-o', target]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(piped30);
    }
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
  });
});

describe('csv sent onto a file with >> (cron, or a restarted feed --watch, as its hint says)', () => {
  it("continues the file: its header once, then every run's rows", async () => {
    const file = path.join(scratch(), 'all.csv');
    const alone = (await runAgainst(sandbox, ['feed', '--max', '3', '-f', 'csv'])).stdout.split(/\r?\n/);
    const [header, ...rows] = alone.filter((l) => l !== '');
    for (let run = 0; run < 2; run++) {
      const r = await runAgainst(sandbox, ['feed', '--max', '3', '-f', 'csv'], { appendStdoutTo: file });
      expect(r.exitCode).toBe(0);
    }
    const written = readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .filter((l) => l !== '');
    expect(written).toEqual([header, ...rows, ...rows]);
  });

  it('a file opened without appending (1<> file, or > after an echo) is no continuation: the header is written', async () => {
    const file = path.join(scratch(), 'over.csv');
    writeFileSync(file, 'shopping,list\nmilk,2\n');
    const fd = openSync(file, 'r+');
    try {
      const r = await execa('node', [BIN, '--base-url', sandbox.url, 'feed', '--max', '2', '-f', 'csv'], {
        reject: false,
        extendEnv: false,
        env: cleanEnv({ RECALL_FEED_API_KEY: ALL_KEY }),
        // A descriptor opened for reading and writing at offset 0, as a shell's 1<> gives it.
        stdout: fd as unknown as 'pipe',
      });
      expect(r.exitCode).toBe(0);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toMatch(/^id,data_source,/);
  });

  it('-f table onto a file with >> is a table of its own, with its header', async () => {
    const file = path.join(scratch(), 'tables.txt');
    for (let run = 0; run < 2; run++) {
      const r = await runAgainst(sandbox, ['feed', '--max', '1', '-f', 'table'], { appendStdoutTo: file });
      expect(r.exitCode).toBe(0);
    }
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').filter((l) => /\bpublished_at\b/.test(l))).toHaveLength(2);
  });

  it('onto a file whose first line names no recall column: exit 2 before any request, the file untouched', async () => {
    const file = path.join(scratch(), 'notes.csv');
    writeFileSync(file, 'shopping,list\nmilk,2\n');
    sandbox.clearRequests();
    const r = await runAgainst(sandbox, ['feed', '--max', '3', '-f', 'csv'], { appendStdoutTo: file });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot append to the file stdout goes to: its header \(shopping,list\) shares no column with the records\nhint: /,
    );
    expect(sandbox.requests()).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('shopping,list\nmilk,2\n');
  });
});

describe('a folder that cannot be written', () => {
  it.skipIf(!nobodyCanRun).each([[[]], [['--append']]])(
    '-o into a read-only folder (%j) is exit 10 naming the file and the reason (as nobody when run as root)',
    async (extra) => {
      const dir = scratch();
      const ro = path.join(dir, 'ro');
      mkdirSync(ro);
      writeFileSync(path.join(ro, 'x.jsonl'), '{"id":"old"}\n');
      chmodSync(ro, 0o555);
      const home = path.join(dir, 'home');
      mkdirSync(home);
      chmodSync(dir, 0o755);
      if (asRoot) execaSync('chown', ['-R', `${NOBODY}:${NOBODY}`, home]);
      sandbox.clearRequests();
      try {
        const args = ['--base-url', sandbox.url, 'feed', '--max', '2', '-o', path.join(ro, 'x.jsonl'), ...extra];
        const r = await execa('node', [BIN, ...args], {
          reject: false,
          extendEnv: false,
          env: {
            PATH: process.env.PATH,
            HOME: home,
            RECALL_FEED_CONFIG_DIR: home,
            TERM: 'dumb',
            RECALL_FEED_API_KEY: ALL_KEY,
          },
          ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
        });
        expect(r.exitCode).toBe(10);
        expect(r.stderr).toMatch(
          /^error: cannot write \S*\/ro\/x\.jsonl(\.partial)?: permission denied\nhint: check the permissions/,
        );
        expect(sandbox.requests()).toEqual([]);
        expect(readFileSync(path.join(ro, 'x.jsonl'), 'utf8')).toBe('{"id":"old"}\n');
        expect(readdirSync(ro)).toEqual(['x.jsonl']);
      } finally {
        chmodSync(ro, 0o755); // so that the clean-up can remove it
      }
    },
  );
});

describe('csv sent with >> onto a file this user may write but not read (a log only appended to)', () => {
  it.skipIf(!nobodyCanRun)('adds the rows without a second header, exit 0 (as nobody when run as root)', async () => {
    const dir = scratch();
    chmodSync(dir, 0o755);
    const file = path.join(dir, 'log.csv');
    writeFileSync(file, 'id,alert_title\n1,old\n');
    chmodSync(file, 0o200);
    const home = path.join(dir, 'home');
    mkdirSync(home);
    if (asRoot) execaSync('chown', ['-R', `${NOBODY}:${NOBODY}`, home, file]);
    const out = openSync(file, 'a');
    try {
      const args = ['--base-url', sandbox.url, 'feed', '--max', '2', '-f', 'csv'];
      const r = await execa('node', [BIN, ...args], {
        reject: false,
        extendEnv: false,
        env: { PATH: process.env.PATH, HOME: home, RECALL_FEED_CONFIG_DIR: home, RECALL_FEED_API_KEY: ALL_KEY },
        // A descriptor number, as a shell's >> gives it (execa's types name only 0-2).
        stdout: out as unknown as 'pipe',
        ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      });
      expect(r.exitCode).toBe(0);
    } finally {
      closeSync(out);
      chmodSync(file, 0o600);
    }
    const written = readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .filter((l) => l !== '');
    expect(written.slice(0, 2)).toEqual(['id,alert_title', '1,old']);
    expect(written).toHaveLength(4);
    expect(written.filter((l) => l.startsWith('id,'))).toHaveLength(1);
  });
});

describe('folders', () => {
  it.each(['adir', 'adir/'])('-o %s is exit 2 before any request', async (name) => {
    const dir = scratch();
    mkdirSync(path.join(dir, 'adir'));
    sandbox.clearRequests();
    const r = await runAgainst(sandbox, ['feed', '-o', name], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: cannot write ${name}: (it is a folder|a file name cannot end with /)\\nhint: give a file name`,
      ),
    );
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual(['adir']);
    expect(readdirSync(path.join(dir, 'adir'))).toEqual([]);
  });
});

/**
 * Runs the CLI with files limited to 512 bytes (`ulimit -f 1`): writing more fails with EFBIG, as a full disk
 * fails with ENOSPC. Against the built-in sandbox: no key, and the same ids on every run.
 */
function runWithTinyDisk(args: string[]) {
  const child = execa('sh', ['-c', 'ulimit -f 1; exec node "$0" "$@"', BIN, '--sandbox', ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv(),
    cwd: ROOT,
    timeout: 60_000,
    stripFinalNewline: false,
  });
  deferCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await child;
  });
  return child;
}

describe('the state is written before the output is committed', () => {
  it('a disk that cannot take the state: exit 10, the output untouched, and the next run writes what was missed', async () => {
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'new.csv');
    const csv = ['-f', 'csv', '--columns', 'id'];
    // The built-in sandbox serves the same ids on every run; the first run remembers 5 of them.
    const first = await runCli(['--sandbox', 'feed', '--state', state, '--max', '5', ...csv]);
    expect(first.exitCode).toBe(0);
    const stateBefore = readFileSync(state, 'utf8');

    // The state with every id no longer fits in 512 bytes.
    const full = await runWithTinyDisk(['feed', '--state', state, ...csv, '-o', out]);
    expect(full.exitCode).toBe(10);
    expect(full.stderr).toMatch(
      new RegExp(`^error: cannot write ${state}: the file is too large\\nhint: give --state a file`),
    );
    expect(readdirSync(dir)).toEqual(['seen.json']);
    expect(readFileSync(state, 'utf8')).toBe(stateBefore);

    // On stdout nothing is printed either: the state is staged before the records go out.
    const piped = await runWithTinyDisk(['feed', '--state', state, ...csv]);
    expect(piped.exitCode).toBe(10);
    expect(piped.stdout).toBe('');
    expect(readFileSync(state, 'utf8')).toBe(stateBefore);

    // The built-in sandbox's window moves with the clock: what it serves is read just before and just after.
    const before = await runCli(['--sandbox', 'feed', ...csv]);
    const again = await runCli(['--sandbox', 'feed', '--state', state, ...csv, '-o', out]);
    expect(again.exitCode).toBe(0);
    const after = await runCli(['--sandbox', 'feed', ...csv]);
    const rest = lines(readFileSync(out, 'utf8')).slice(1);
    const firstIds = lines(first.stdout).slice(1);
    expect(firstIds).toHaveLength(5);
    const written = [...firstIds, ...rest];
    expect(new Set(written).size).toBe(written.length);
    const [was, is] = [new Set(lines(before.stdout).slice(1)), new Set(lines(after.stdout).slice(1))];
    // Every id served all along was written; nothing was written that was never served.
    for (const id of was) if (is.has(id)) expect(written).toContain(id);
    for (const id of rest) expect(was.has(id) || is.has(id)).toBe(true);
  });
});

describe('--metrics-file under a strict umask', () => {
  it('is 0644 with umask 077 (cron and hardened units often set one), new and replaced', async () => {
    const file = path.join(tempDir('rf-prom-mode-'), 'recall_feed.prom');
    for (let run = 0; run < 2; run++) {
      const child = execa(
        'sh',
        [
          '-c',
          'umask 077; exec node "$0" "$@"',
          BIN,
          '--base-url',
          sandbox.url,
          'feed',
          '-f',
          'jsonl',
          '--metrics-file',
          file,
        ],
        { reject: false, extendEnv: false, env: cleanEnv({ RECALL_FEED_API_KEY: ALL_KEY }), cwd: ROOT },
      );
      deferCleanup(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await child;
      });
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(0);
      expect((statSync(file).mode & 0o777).toString(8)).toBe('644');
    }
  });
});
