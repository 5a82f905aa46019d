// Temp folders that remove themselves: after the test that made them, or after the file (see cleanup.ts).
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deferCleanup, deferFileCleanup } from './cleanup.js';

/**
 * A new empty folder in the system temp directory, removed with everything in it when the test ends (made outside
 * a test, or with `scope: 'file'`: when the file ends).
 */
export function tempDir(prefix = 'rf-', opts: { scope?: 'file' } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  (opts.scope === 'file' ? deferFileCleanup : deferCleanup)(() => removeTree(dir));
  return dir;
}

/** rm -rf, also through folders a test made unreadable or unwritable (they are the test's own). */
export function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    allowAll(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

function allowAll(p: string): void {
  try {
    if (!statSync(p).isDirectory()) return;
    chmodSync(p, 0o700);
    for (const name of readdirSync(p)) allowAll(path.join(p, name));
  } catch {
    // Gone already, or not ours to change: rmSync reports what is left.
  }
}
