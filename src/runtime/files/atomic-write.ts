// Replaces a file in one step (temp file in the same folder, flushed to disk, then renamed), created with mode 0600.
import { promises as fs } from 'node:fs';
import { createFresh, keepOwnerAsRoot, type Owner } from './fresh-file.js';
import { sidecarPath } from './sidecar-names.js';
import { removeStaleTemps } from './stale-temps.js';

export type { Owner } from './fresh-file.js';

/** Temporary names handed out by this process: two replacements in flight never share one. */
let sequence = 0;

/** The files whose killed writers' temporary files this process has looked for: once each (a watch writes metrics each poll). */
const tidied = new Set<string>();

/** The temporary file beside `file` that a replacement is written to first (short enough for any name). */
export function atomicTempPath(file: string): string {
  return sidecarPath(file, `.${process.pid}.tmp`, '.');
}

/**
 * Writes `content` to a new `file` and flushes it to the disk before returning: a rename that follows it can never
 * put an empty or half-written file in place after a power cut. Whatever was at the name goes first, and the file is
 * created exclusively (createFresh): a link planted there is never written through. Without `mode` the file is 0600
 * (under the umask); a `mode` (a file another user reads: the metrics textfile) is set past the umask. `owner` (the
 * file replaced's) is kept when running as root. Both are set on the open file, never through the name.
 */
export async function writeFileSynced(file: string, content: string, mode?: number, owner?: Owner): Promise<void> {
  const handle = await createFresh(file, mode ?? 0o600);
  try {
    await handle.writeFile(content);
    // Before the mode: a chown may clear the set-id bits.
    await keepOwnerAsRoot(handle, owner);
    // The umask (077 under many cron setups) would take the mode given at creation down to 0600.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Throws the file system's own error; callers say which file it was for (see write-errors.ts). The temporary files of
 * this one's writers that are not running any more (killed) are removed first. A `mode` other
 * than 0600 (a file another user reads: the metrics textfile) is set again after creation, past the umask; `owner`
 * (the replaced file's) is kept as root.
 */
export async function writeFileAtomic(file: string, content: string, mode?: number, owner?: Owner): Promise<void> {
  // A run killed mid-write left its temporary file here (metrics, notes, a partial's state): it goes now.
  if (!tidied.has(file)) {
    tidied.add(file);
    await removeStaleTemps(file);
  }
  const tmp = sidecarPath(file, `.${process.pid}.${++sequence}.tmp`, '.');
  try {
    await writeFileSynced(tmp, content, mode, owner);
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}
