// `feed -o` onto what is not a plain new file: devices, FIFOs, /dev/stdout, symlinks, folders, modes, long names.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, BIN, FIXED_START, jsonLines, lines, runAgainst, sandboxFor, tempDir } from '../helpers/cli.js';
import { expectedFeed } from '../helpers/expected.js';

let sandbox: Sandbox;
let piped30: string;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 3, clock: () => FIXED_START });
  piped30 = (await runAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl'])).stdout;
});
afterAll(() => sandbox.close());

const scratch = () => tempDir('rf-targets-');

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const expectedIds = (n: number) =>
  expectedFeed(sandbox, { now: FIXED_START })
    .slice(0, n)
    .map((r) => r.id);

describe('devices, pipes and stdout are written through, never replaced', () => {
  it('-o /dev/null leaves /dev/null a character device', async () => {
    const r = await runAgainst(sandbox, ['feed', '--max', '3', '-o', '/dev/null']);
    expect(r.exitCode).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(existsSync('/dev/null.partial')).toBe(false);
  });

  it('-o /dev/stdout, /dev/fd/1 and - deliver every line to the pipe', async () => {
    for (const target of ['/dev/stdout', '/dev/fd/1', '-']) {
      const r = await runAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl', '-o', target]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(piped30);
    }
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
  });

  it('a FIFO read by another process gets the records, and stays a FIFO', async () => {
    const fifo = path.join(scratch(), 'feed.pipe');
    await execa('mkfifo', [fifo]);
    // Killed after 30 s at most: a CLI that never opened the FIFO would leave it waiting for ever.
    const reader = execa('cat', [fifo], { timeout: 30_000 });
    const r = await runAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl', '-o', fifo]);
    expect(r.exitCode).toBe(0);
    expect((await reader).stdout).toBe(piped30.trimEnd());
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(path.dirname(fifo))).toEqual(['feed.pipe']);
  });

  it('a full device is exit 10 naming the file and the reason', async () => {
    const r = await runAgainst(sandbox, ['feed', '--max', '3', '-o', '/dev/full']);
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toMatch(/^error: cannot write \/dev\/full: the disk is full\nhint: free some space/);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});

describe('a folder that cannot be written', () => {
  // Root writes anywhere: then the CLI runs as nobody, which is what a cron user meets.
  const asRoot = process.getuid?.() === 0;
  const NOBODY = 65534;
  // nobody must be able to run this checkout (a clone in a 0700 temp folder is out of its reach).
  const nobodyCanRun =
    !asRoot || execaSync('node', [BIN, '--version'], { reject: false, uid: NOBODY, gid: NOBODY }).exitCode === 0;

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

describe('symlinks', () => {
  it('-o link and -o link --append update the file the link points to; the link stays a link', async () => {
    const dir = scratch();
    mkdirSync(path.join(dir, 'real'));
    const real = path.join(dir, 'real', 'data.jsonl');
    const link = path.join(dir, 'link.jsonl');
    symlinkSync(real, link); // dangling until the first run
    expect((await runAgainst(sandbox, ['feed', '--max', '3', '-o', link])).exitCode).toBe(0);
    expect((await runAgainst(sandbox, ['feed', '--max', '2', '-o', link, '--append'])).exitCode).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(ids(readFileSync(real, 'utf8'))).toEqual([...expectedIds(3), ...expectedIds(2)]);
    expect((await runAgainst(sandbox, ['feed', '--max', '1', '-o', link])).exitCode).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(ids(readFileSync(real, 'utf8'))).toEqual(expectedIds(1));
    expect(readdirSync(dir).sort()).toEqual(['link.jsonl', 'real']);
    expect(readdirSync(path.join(dir, 'real'))).toEqual(['data.jsonl']);
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

describe('what the target keeps', () => {
  it('a replaced or appended 0600 file stays 0600', async () => {
    const file = path.join(scratch(), 'secret.jsonl');
    writeFileSync(file, '', { mode: 0o600 });
    chmodSync(file, 0o600);
    await runAgainst(sandbox, ['feed', '--max', '2', '-o', file]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await runAgainst(sandbox, ['feed', '--max', '2', '-o', file, '--append']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ids(readFileSync(file, 'utf8'))).toEqual([...expectedIds(2), ...expectedIds(2)]);
  });

  it('--append to a file without a final newline starts the new records on a line of their own', async () => {
    const file = path.join(scratch(), 'log.jsonl');
    writeFileSync(file, '{"id":"old"}');
    await runAgainst(sandbox, ['feed', '--max', '2', '-o', file, '--append']);
    expect(ids(readFileSync(file, 'utf8'))).toEqual(['old', ...expectedIds(2)]);
  });

  it('--append leaves the target as it was when the run fails', async () => {
    const file = path.join(scratch(), 'log.jsonl');
    writeFileSync(file, '{"id":"old"}\n');
    const r = await runAgainst(sandbox, ['feed', '--sources', 'us_fda', '-o', file, '--append']);
    expect(r.exitCode).toBe(4);
    expect(readFileSync(file, 'utf8')).toBe('{"id":"old"}\n');
    expect(readdirSync(path.dirname(file))).toEqual(['log.jsonl']);
  });

  it('a csv file with no records holds the header; stdout stays empty', async () => {
    const empty = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    try {
      const file = path.join(scratch(), 'none.csv');
      const r = await runAgainst(empty, ['feed', '-o', file]);
      expect(r.exitCode).toBe(0);
      expect(lines(readFileSync(file, 'utf8'))).toEqual([expect.stringMatching(/^id,data_source,/)]);
      // On stdout nothing found stays silence.
      expect((await runAgainst(empty, ['feed', '-f', 'csv'])).stdout).toBe('');
    } finally {
      await empty.close();
    }
  });

  it('a 247-character file name works, also when a failed run must keep its partial and state', async () => {
    const dir = scratch();
    const file = path.join(dir, `${'r'.repeat(241)}.jsonl`);
    sandbox.setFaults({ failAfterPages: 1 });
    try {
      const failed = await runAgainst(sandbox, [
        '--retries',
        '0',
        'feed',
        '--page-size',
        '10',
        '--max',
        '30',
        '-o',
        file,
      ]);
      expect(failed.exitCode).toBe(6);
      expect(readdirSync(dir)).toHaveLength(2);
    } finally {
      sandbox.setFaults({});
    }
    const resumed = await runAgainst(sandbox, ['feed', '--page-size', '10', '--max', '30', '-o', file, '--resume']);
    expect(resumed.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(piped30);
    expect(readdirSync(dir)).toEqual([path.basename(file)]);
  });
});
