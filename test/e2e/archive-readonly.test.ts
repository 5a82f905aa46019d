// Reading an archive one may not write (a read-only file and folder), as `nobody` in a process of its own; the archive is
// made and the expected output read in process. The rest of reading archives: test/behaviour/archive-files.test.ts.
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ARCHIVE_READS, catalogueIn, syncedFolder } from '../helpers/archive-reads.js';
import { BIN, FIXED_START, cleanEnv, sandboxFor, tempDir } from '../helpers/cli.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMain } from '../helpers/in-process.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 600, seed: 81, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

/**
 * Whether `nobody` exists and may run the CLI here (root ignores file modes, so the read-only tests need
 * another user); a checkout in a folder only root may enter (a 0700 temporary folder) rules it out.
 */
const nobody = (() => {
  try {
    return execaSync('runuser', ['-u', 'nobody', '--', 'node', BIN, '--version'], { reject: false }).exitCode === 0;
  } catch {
    return false;
  }
})();
if (!nobody)
  process.stderr.write(
    'archive-readonly: `nobody` cannot run the CLI here, so the read-only folder tests are skipped\n',
  );

/** The CLI as `nobody`, with a home and config folder it may read, and a cache folder it may write (match's state). */
function asNobody(args: string[]) {
  const home = tempDir('rf-nobody-');
  chmodSync(home, 0o755);
  const cache = tempDir('rf-nobody-cache-');
  chmodSync(cache, 0o777);
  const child = execa('runuser', ['-u', 'nobody', '--', 'node', BIN, ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ HOME: home, RECALL_FEED_CONFIG_DIR: home, RECALL_FEED_CACHE_DIR: cache }),
    cwd: home,
    stripFinalNewline: false,
  });
  deferCleanup(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await child;
  });
  return child;
}

describe('read-only archives', () => {
  it.skipIf(!nobody)(
    'query, stats, show and match --archive work on a read-only file in a read-only folder',
    async () => {
      const { dir, db } = await syncedFolder(sandbox);
      const catalogue = catalogueIn(dir);
      const expected = await Promise.all(ARCHIVE_READS(db, catalogue).map((args) => runMain(args)));
      const id = JSON.parse(expected[0]!.stdout.split('\n')[0]!).id as number;
      chmodSync(db, 0o444);
      chmodSync(dir, 0o555);
      for (const [i, args] of ARCHIVE_READS(db, catalogue).entries()) {
        const r = await asNobody(args);
        expect([r.exitCode, r.stderr], args.join(' ')).toEqual([0, expected[i]!.stderr]);
        expect(r.stdout).toBe(expected[i]!.stdout);
      }
      const show = await asNobody(['show', String(id), '--history', '-f', 'jsonl', '--db', db]);
      expect([show.exitCode, show.stdout]).toEqual([0, `${expected[0]!.stdout.split('\n')[0]}\n`]);
      // A writer is still told it cannot write.
      const sync = await asNobody(['--base-url', sandbox.url, '--api-key', 'x', 'sync', '--db', db]);
      expect(sync.exitCode).toBe(10);
      expect(readdirSync(dir).sort()).toEqual(['catalogue.csv', 'recalls.db']);
    },
  );

  it.skipIf(!nobody)(
    'a file left in WAL mode on a read-only folder is still read (from a copy in memory)',
    async () => {
      const { dir, db } = await syncedFolder(sandbox);
      const before = await runMain(['query', '--db', db, '-f', 'jsonl']);
      const handle = new Database(db);
      handle.pragma('journal_mode = WAL');
      handle.close();
      expect(readFileSync(db)[18]).toBe(2);
      chmodSync(dir, 0o555);
      const r = await asNobody(['query', '--db', db, '-f', 'jsonl']);
      expect([r.exitCode, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe(before.stdout);
      expect(readFileSync(db)[18]).toBe(2);
    },
  );
});
