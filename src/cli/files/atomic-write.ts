// Replaces a file in one step (temp file in the same folder, then rename), created with mode 0600.
import { promises as fs } from 'node:fs';
import { sidecarPath } from './sidecar-names.js';

/** Throws the file system's own error; callers say which file it was for (see write-errors.ts). */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const tmp = sidecarPath(file, `.${process.pid}.tmp`, '.');
  try {
    await fs.writeFile(tmp, content, { mode: 0o600 });
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
