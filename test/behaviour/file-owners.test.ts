// Who owns what a run replaces, and who may replace it: a root run keeps a user's --state owner and group (as -o's), a
// user's replace keeps the file's group when the user is in it (and warns when not), and a read-only file is refused
// before any request. The other user is `nobody` (setpriv), so these run only as root (CI does); the CLI runs from the
// sources, bundled, as append-killed.test.ts runs it.
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { bundleCliScript } from '../helpers/child-module.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
/** A group nobody is not in unless setpriv puts it there (daemon on Debian-like systems; any gid does). */
const SHARED_GID = 1;

/** What bin/recall-feed.cjs does once it has the CLI. */
const ENTRY = `import { main } from './src/cli/main.ts';
import { processContext } from './src/runtime/process-context.ts';
const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();`;

let cli: string;
let sandbox: Sandbox;

beforeAll(async () => {
  if (!asRoot) return;
  const dir = tempDir('rf-owners-cli-', { scope: 'file' });
  chmodSync(dir, 0o755);
  cli = path.join(dir, 'cli.mjs');
  await bundleCliScript(cli, ENTRY, 'owners-cli-entry.ts');
  sandbox = await sandboxFor({ recordCount: 40 });
}, 180_000);
afterAll(() => sandbox?.close());

/** A folder nobody owns (0755), in a temp folder others may enter. */
function nobodysFolder(): string {
  const top = tempDir('rf-owners-');
  chmodSync(top, 0o755);
  const dir = path.join(top, 'work');
  mkdirSync(dir);
  chownSync(dir, NOBODY, NOBODY);
  return dir;
}

/** `recall-feed --base-url <sandbox> <args>` as nobody, with the supplementary `groups` given (none by default). */
async function asNobody(args: string[], dir: string, groups: number[] = []) {
  const ids = [
    `--reuid=${NOBODY}`,
    `--regid=${NOBODY}`,
    groups.length ? `--groups=${groups.join(',')}` : '--clear-groups',
  ];
  const r = await execa('setpriv', [...ids, process.execPath, cli, '--base-url', sandbox.url, ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      TERM: 'dumb',
      HOME: dir,
      RECALL_FEED_API_KEY: ALL_KEY,
      RECALL_FEED_CONFIG_DIR: path.join(dir, '.config'),
      RECALL_FEED_CACHE_DIR: path.join(dir, '.cache'),
    },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const rows = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').length - 1;
const owner = (file: string) => {
  const st = statSync(file);
  return { uid: st.uid, gid: st.gid, mode: st.mode & 0o7777 };
};

describe.skipIf(!asRoot)('a root run on a user’s files', () => {
  it("keeps the --state file's owner and group: the user's next run still reads and writes it", async () => {
    const dir = nobodysFolder();
    const [out, state] = [path.join(dir, 'n.csv'), path.join(dir, 'seen.json')];
    const args = (max: string) => ['feed', '-f', 'csv', '-o', out, '--append', '--state', state, '--max', max];
    const seen = () => Object.keys(JSON.parse(readFileSync(state, 'utf8')).seen).length;
    const first = await asNobody(args('2'), dir);
    expect(first.code, first.stderr).toBe(0);
    expect(owner(state)).toEqual({ uid: NOBODY, gid: NOBODY, mode: 0o600 });
    const afterFirst = seen();

    // As root, in process: an admin running the user's cron line once.
    const byRoot = await runMainAgainst(sandbox, args('4'));
    expect(byRoot.code, byRoot.stderr).toBe(0);
    expect(owner(state)).toEqual({ uid: NOBODY, gid: NOBODY, mode: 0o600 });
    expect(owner(out)).toMatchObject({ uid: NOBODY, gid: NOBODY });
    const afterRoot = seen();
    expect(afterRoot).toBeGreaterThan(afterFirst);

    const again = await asNobody(args('6'), dir);
    expect(again.code, again.stderr).toBe(0);
    expect(seen()).toBeGreaterThan(afterRoot);
    // Each recall once: the rows are the ids the state holds.
    expect(rows(out)).toBe(seen());
  });
});

describe.skipIf(!asRoot)('a user replacing an -o file', () => {
  /** nobody's 0640 export, shared through group SHARED_GID (root set the group, as `chgrp` by a member would). */
  async function sharedExport(): Promise<{ dir: string; file: string }> {
    const dir = nobodysFolder();
    const file = path.join(dir, 'shared.csv');
    const made = await asNobody(['feed', '--max', '3', '-f', 'csv', '-o', file], dir);
    expect(made.code, made.stderr).toBe(0);
    chownSync(file, NOBODY, SHARED_GID);
    chmodSync(file, 0o640);
    return { dir, file };
  }

  it('keeps its group when the user is in that group', async () => {
    const { dir, file } = await sharedExport();
    const r = await asNobody(['feed', '--max', '4', '-f', 'csv', '-o', file], dir, [SHARED_GID]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(rows(file)).toBe(4);
    expect(owner(file)).toEqual({ uid: NOBODY, gid: SHARED_GID, mode: 0o640 });
  });

  it('says so on stderr when the user is not in it (the file is then the user’s group’s)', async () => {
    const { dir, file } = await sharedExport();
    const r = await asNobody(['feed', '--max', '4', '-f', 'csv', '-o', file], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `warning: ${file} now belongs to group ${NOBODY}: its group ${SHARED_GID} could not be kept, as this user is not in it\n`,
    );
    expect(rows(file)).toBe(4);
    expect(owner(file)).toEqual({ uid: NOBODY, gid: NOBODY, mode: 0o640 });
  });

  it('refuses a read-only (0444) file with exit 10 before any request, as --append does; the file stays', async () => {
    const dir = nobodysFolder();
    const file = path.join(dir, 'ro.csv');
    expect((await asNobody(['feed', '--max', '2', '-f', 'csv', '-o', file], dir)).code).toBe(0);
    chmodSync(file, 0o444);
    const before = readFileSync(file, 'utf8');
    for (const more of [[], ['--append']]) {
      sandbox.clearRequests();
      const r = await asNobody(['feed', '--max', '3', '-f', 'csv', '-o', file, ...more], dir);
      expect(r.code).toBe(10);
      expect(r.stderr).toMatch(new RegExp(`^error: cannot write ${file}: permission denied\n`));
      expect(sandbox.requests()).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(owner(file).mode).toBe(0o444);
      expect(readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual(['ro.csv']);
    }
    expect(existsSync(`${file}.partial`)).toBe(false);
  });
});
