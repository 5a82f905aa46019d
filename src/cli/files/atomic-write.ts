// Replaces a file in one step (temp file in the same folder, then rename), created with mode 0600.
import { promises as fs, renameSync, rmSync, writeFileSync } from 'node:fs';
import { sidecarPath } from './sidecar-names.js';

/** The temporary file beside `file` that a replacement is written to first (short enough for any name). */
export function atomicTempPath(file: string): string {
  return sidecarPath(file, `.${process.pid}.tmp`, '.');
}

/** Throws the file system's own error; callers say which file it was for (see write-errors.ts). */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const tmp = atomicTempPath(file);
  try {
    await fs.writeFile(tmp, content, { mode: 0o600 });
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** The same, for the synchronous config store (an existing 0644 file becomes 0600). */
export function writeFileAtomicSync(file: string, content: string): void {
  const tmp = atomicTempPath(file);
  try {
    writeFileSync(tmp, content, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
