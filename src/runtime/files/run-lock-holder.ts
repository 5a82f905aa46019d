// Who holds a run lock (the note beside it), and taking over at once a lock whose holder, on this host, has ended.
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { createFresh } from './fresh-file.js';
import { sidecarPath } from './sidecar-names.js';
import { running } from '../process-running.js';

/** Who holds a lock, written beside it so that a waiting run can name it, and tell whether it still runs. */
export interface Holder {
  pid: number;
  host: string;
  started: string;
  /**
   * Which lock folder the note belongs to (its inode and birth time): a note left by a killed run stays
   * beside the lock the next run takes, until that run writes its own; only a match says the pid holds it.
   */
  lock?: string;
}

export const lockDir = (file: string) => sidecarPath(file, '.lock');
export const holderFile = (file: string) => sidecarPath(file, '.lock.json');

async function lockIdentity(file: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(lockDir(file), { bigint: true });
    return `${st.ino}:${st.birthtimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Writes this process's note beside the lock it has just taken: a new file (createFresh), readable by the runs of other
 * users that wait for it, never written through a link planted at its fixed name.
 */
export async function writeHolder(file: string, started: string): Promise<void> {
  const holder: Holder = { pid: process.pid, host: hostname(), started, lock: await lockIdentity(file) };
  const handle = await createFresh(holderFile(file), 0o666);
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`);
  } finally {
    await handle.close();
  }
}

export async function readHolder(file: string): Promise<Holder | undefined> {
  try {
    const h = JSON.parse(await fs.readFile(holderFile(file), 'utf8')) as Partial<Holder>;
    if (typeof h.pid === 'number') return h as Holder;
  } catch {
    // not written yet, or gone meanwhile
  }
  return undefined;
}

export function describeHolder(h: Holder | undefined): string {
  return h ? `another recall-feed run (pid ${h.pid} on ${h.host}, started ${h.started})` : 'another recall-feed run';
}

/**
 * Whether the lock on `file` was left by `holder`, a run that has ended: its note names this host and this very lock
 * folder, and no process has its pid. The hostname stands for the pid namespace: containers sharing a volume need
 * hostnames of their own (Docker's default).
 */
export async function holderEnded(file: string, holder: Holder | undefined): Promise<boolean> {
  if (!holder?.lock || holder.host !== hostname() || holder.pid === process.pid || running(holder.pid)) return false;
  return (await lockIdentity(file)) === holder.lock;
}

/**
 * Removes the lock of `holder` if that run has ended (holderEnded). Without this a rerun after a kill would wait until
 * the lock goes stale. Returns whether the lock was removed; the caller then takes it as usual.
 */
export async function takeOverIfEnded(file: string, holder: Holder | undefined): Promise<boolean> {
  if (!(await holderEnded(file, holder))) return false;
  // Renamed, not removed in place: of two runs taking over at once only one moves it, and the other finds no
  // folder, or the winner's new one (another identity), and queues behind the winner. What is left is the
  // moment between the stat and the rename, as in proper-lockfile's own stale takeover; a winner that loses
  // its lock so is told by proper-lockfile (RunLock.check) before it commits anything.
  const aside = sidecarPath(file, `.lock.ended-${process.pid}`);
  try {
    await fs.rename(lockDir(file), aside);
  } catch {
    return false;
  }
  await fs.rm(aside, { recursive: true, force: true });
  return true;
}
