// A SQLite driver that cannot load (its compiled binding damaged, missing, or built for another Node.js): sync,
// stats --live and doctor say so in one line with the fix, exit 17 (docs/exit-codes.md), not "unexpected error" (1).
// The broken binding is a file of this test's own, loaded through the seam sqlite/open.ts keeps for it
// (useNativeBinding): node_modules is never touched.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNativeBinding } from '../../src/archive/sqlite/open.js';
import type { CheckResult } from '../../src/jobs/doctor/check.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The exit code docs/exit-codes.md gives a driver that cannot be loaded. */
const DRIVER_EXIT = 17;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 17 });
});
afterAll(async () => {
  await sandbox?.close();
});

/**
 * A damaged better_sqlite3.node where an install keeps it (an interrupted compile, a truncated copy), in a folder with
 * a space and non-ASCII letters; connections load it until the test ends.
 */
function brokenInstall(): { root: string; install: string; binding: string } {
  const root = tempDir('rf-driver-');
  const install = path.join(root, 'proj ünï');
  const release = path.join(install, 'node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(release, { recursive: true });
  const binding = path.join(release, 'better_sqlite3.node');
  writeFileSync(binding, 'not an elf\n');
  deferCleanup(useNativeBinding(binding));
  return { root, install, binding };
}

/** What each run says: the error and the hint, computed here from the install's folder and Node's words. */
function expectedLines(install: string, binding: string): string[] {
  return [
    `error: the SQLite driver (better-sqlite3) could not be loaded: ${binding}: file too short`,
    `hint: an install problem, not a bug (a Node.js upgraded since the install, a node_modules from another machine): run \`cd '${install}' && npm rebuild better-sqlite3\`, or reinstall recall-feed; a PostgreSQL --db needs no driver`,
  ];
}

describe('a SQLite driver that cannot be loaded', () => {
  it('sync: one line naming the driver and why, the hint, exit 17; nothing written', async () => {
    const { root, install, binding } = brokenInstall();
    const db = path.join(root, 'arch ü.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db]);
    expect(r.stderr.trimEnd().split('\n')).toEqual(expectedLines(install, binding));
    expect(r.stdout).toBe('');
    expect(r.code).toBe(DRIVER_EXIT);
    expect(readdirSync(root)).toEqual(['proj ünï']);
  });

  it('stats --live (an archive in memory, no file at all): the same line and hint, exit 17', async () => {
    const { install, binding } = brokenInstall();
    const r = await runMainAgainst(sandbox, ['stats', '--live']);
    expect(r.stderr.trimEnd().split('\n')).toEqual(expectedLines(install, binding));
    expect(r.stdout).toBe('');
    expect(r.code).toBe(DRIVER_EXIT);
  });

  it('doctor: the archive check fails with the same text and hint, for an archive synced before and for none yet', async () => {
    const root = tempDir('rf-driver-db-');
    const synced = path.join(root, 'synced.db');
    // Synced while the driver still loaded.
    expect((await runMainAgainst(sandbox, ['sync', '--db', synced])).code).toBe(0);
    const { install, binding } = brokenInstall();
    const [error, hint] = expectedLines(install, binding).map((l) => l.replace(/^(error|hint): /, ''));
    for (const db of [synced, path.join(root, 'not yet.db')]) {
      const r = await runMainAgainst(sandbox, ['doctor', '--db', db, '-f', 'json']);
      const check = (JSON.parse(r.stdout) as { checks: CheckResult[] }).checks.find((c) => c.name === 'archive');
      expect(check, db).toEqual({ name: 'archive', status: 'fail', detail: `${db}: ${error}`, hint });
      expect(r.code, db).toBe(16);
    }
  });
});
