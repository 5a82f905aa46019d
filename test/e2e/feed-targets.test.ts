// `feed -o` that needs a real process: /dev/stdout and /dev/fd/1, relative folder names against a working directory, and
// read-only folders as nobody. Symlinks, modes, long names, /dev/null, /dev/full and FIFOs run in process (test/behaviour/).
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, BIN, FIXED_START, runAgainst, sandboxFor, tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
let piped30: string;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 3, clock: () => FIXED_START });
  piped30 = (await runAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl'])).stdout;
});
afterAll(() => sandbox.close());

const scratch = () => tempDir('rf-targets-');

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
