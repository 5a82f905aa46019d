// The temporary files killed runs left beside a file (`.<name>.<pid>.tmp`, `.<name>.<pid>.<n>.tmp`): removed once their
// pid runs no more and they are older than any write takes.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { running } from '../process-running.js';
import { sidecarPath } from './sidecar-names.js';

const DIGITS = /^\d+$/;

/**
 * How old a temporary file must be (by its mtime) before it is removed: far longer than any write of one takes. The pid
 * alone says nothing of a writer on another host sharing the folder (NFS, a container with its own pids).
 */
export const STALE_TEMP_AGE_MS = 10 * 60_000;

/** The pid in `name` when it is a temporary file of `file` (atomic-write.ts names them), else undefined. */
function tempOwner(file: string, name: string): number | undefined {
  if (!name.startsWith('.') || !name.endsWith('.tmp')) return undefined;
  const parts = name.slice(0, -'.tmp'.length).split('.');
  const [last, before] = [parts.at(-1) ?? '', parts.at(-2) ?? ''];
  // `.<pid>.tmp` or `.<pid>.<n>.tmp`: each reading is checked against the name the writer gives it (a long name is cut).
  const readings: [number, string][] = [];
  if (DIGITS.test(last)) readings.push([Number(last), `.${last}.tmp`]);
  if (DIGITS.test(last) && DIGITS.test(before)) readings.push([Number(before), `.${before}.${last}.tmp`]);
  for (const [pid, suffix] of readings) {
    if (path.basename(sidecarPath(file, suffix, '.')) === name) return pid;
  }
  return undefined;
}

/**
 * Removes the temporary files of `file` whose writer is not running on this host and that were last written more than
 * STALE_TEMP_AGE_MS ago: a run killed mid-write (its state staged, a metrics file, a note) leaves one, holding the
 * whole of what it was writing. This process's own, a running process's, and a recent one (maybe another host's
 * writer's) stay; a recent one of a pid in `ended` goes too: a run of this host whose lock on `file` was just taken
 * over as ended (run-lock.ts), so no live writer, here or elsewhere, holds `file`. Nothing that cannot be read or
 * removed stops the run: the next one tries again.
 */
export async function removeStaleTemps(file: string, ended: ReadonlySet<number> = new Set()): Promise<void> {
  const folder = path.dirname(file);
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  // The wall clock, as the file system's mtimes are (a run's injected clock may be pinned elsewhere).
  const before = Date.now() - STALE_TEMP_AGE_MS;
  for (const name of names) {
    const pid = tempOwner(file, name);
    if (pid === undefined || pid === process.pid || running(pid)) continue;
    const temp = path.join(folder, name);
    const stat = await fs.lstat(temp).catch(() => undefined);
    if (!stat || (stat.mtimeMs > before && !ended.has(pid))) continue;
    await fs.rm(temp, { force: true }).catch(() => {});
  }
}
