// A metrics file the run cannot write (its folder missing, not a folder, or not writable: a bind mount docker made
// root-owned for a container running as another user) is one plain warning naming the folder and the reason in words,
// never the temporary file nor Node's errno text; the run's exit code stays its own.
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 411 });
});
afterAll(async () => {
  await sandbox?.close();
});

/** One sync into a fresh archive with `--metrics-file file`. */
function syncWithMetrics(dir: string, file: string) {
  return runMainAgainst(sandbox, ['sync', '--db', path.join(dir, 'recalls.db'), '--metrics-file', file]);
}

describe('a metrics file that cannot be written', () => {
  it('its folder missing: the warning names the folder and says so in words', async () => {
    const dir = tempDir();
    const folder = path.join(dir, 'metrics');
    const file = path.join(folder, 'recall_feed.prom');
    const r = await syncWithMetrics(dir, file);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `warning: metrics file ${file} not written: cannot write in ${folder}: its folder does not exist\n`,
    );
    expect(existsSync(folder)).toBe(false);
  });

  it('a file where its folder should be: a part of the path is not a folder', async () => {
    const dir = tempDir();
    const folder = path.join(dir, 'metrics');
    writeFileSync(folder, 'not a folder\n');
    const file = path.join(folder, 'recall_feed.prom');
    const r = await syncWithMetrics(dir, file);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: metrics file ${file} not written: cannot write in ${folder}: a part of the path is not a folder\n`,
    );
  });

  // Root ignores a folder's mode: this one runs as any other user (the container's recall-feed).
  it.skipIf(process.getuid?.() === 0)(
    'a folder this user may not write (docker made the bind mount root-owned): permission denied, no temp file left',
    async () => {
      const dir = tempDir();
      const folder = path.join(dir, 'metrics');
      mkdirSync(folder, { mode: 0o555 });
      chmodSync(folder, 0o555);
      const file = path.join(folder, 'recall_feed.prom');
      try {
        const r = await syncWithMetrics(dir, file);
        expect(r.code).toBe(0);
        expect(r.stderr).toBe(
          `warning: metrics file ${file} not written: cannot write in ${folder}: permission denied\n`,
        );
        expect(readdirSync(folder)).toEqual([]);
      } finally {
        chmodSync(folder, 0o755);
      }
    },
  );
});
