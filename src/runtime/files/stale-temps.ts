// The temporary files killed runs left beside a file (`.<name>.<pid>.tmp`, `.<name>.<pid>.<n>.tmp`): removed once their pid runs no more.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { running } from './run-lock-holder.js';
import { sidecarPath } from './sidecar-names.js';

const DIGITS = /^\d+$/;

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
 * Removes the temporary files of `file` whose writer is not running on this host: a run killed mid-write (its state
 * staged, a metrics file, a note) leaves one, holding the whole of what it was writing. This process's own, and a
 * running process's, stay. Nothing that cannot be read or removed stops the run: the next one tries again.
 */
export async function removeStaleTemps(file: string): Promise<void> {
  const folder = path.dirname(file);
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const pid = tempOwner(file, name);
    if (pid === undefined || pid === process.pid || running(pid)) continue;
    await fs.rm(path.join(folder, name), { force: true }).catch(() => {});
  }
}
