// Keeps two runs off the same output or state file: a lock per file (proper-lockfile), waited for up to a bound, naming its holder.
import { rmSync, promises as fs } from 'node:fs';
import type { LockOptions } from 'proper-lockfile';
import { sleep as realSleep } from '../../api/sleep.js';
import { BusyError } from '../cli-errors.js';
import { type Context, monotonicClock } from '../context.js';
import { repairKilledAppend } from './append-journal.js';
import { describeHolder, holderFile, lockDir, readHolder, takeOverIfEnded, writeHolder } from './run-lock-holder.js';
import { DEFAULT_LOCK_WAIT_S } from './lock-wait.js';
import { partialStatePath } from './sidecar-names.js';
import { removeStaleTemps } from './stale-temps.js';
import { resolveTargetPath } from './target-path.js';
import { cannotWrite, errnoCode } from './write-errors.js';

export interface RunLockOptions {
  /** How long to wait for other runs before giving up with BusyError; 0: give up at once. */
  waitMs: number;
  /** Aborting stops the wait (the signal's reason is thrown); locks taken so far are released. */
  signal?: AbortSignal;
  /** Told once, when a file turns out to be held by another run: who holds it, and which file. */
  onWait?: (holder: string, file: string) => void;
  /** Told when the lock on a file was taken over at once from a run on this host that has ended (killed). */
  onTakeOver?: (holder: string, file: string) => void;
  /** Told what a killed run left half done beside a file (an append) and how it was repaired, or why it was not. */
  onRepair?: (line: string) => void;
  /**
   * A lock not refreshed for this long belongs to a run that died (SIGKILL, power loss) and is taken
   * over. A live run refreshes its locks every staleMs / 2. Default 10 s; at least 2 s.
   */
  staleMs?: number;
  /** The flag that sets waitMs, named in the hint when the wait runs out. */
  waitFlag?: string;
  /** The hint when the lock on one of the paths (as given) cannot be taken, for a file -o does not name (--state). */
  hints?: Readonly<Record<string, string>>;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RunLock {
  /** The files locked (real paths, sorted); devices, pipes and stdout need no lock. */
  readonly files: readonly string[];
  /** Throws BusyError if a lock was lost: this run stalled past staleMs and another run took it over. */
  check(): void;
  /** Releases every lock; calling it twice is harmless. */
  release(): Promise<void>;
}

export const DEFAULT_STALE_MS = 10_000;

/** How long a run waits for another holding its output or state (feed's --lock-wait default, every other -o's wait). */
export const DEFAULT_LOCK_WAIT_MS = DEFAULT_LOCK_WAIT_S * 1000;

/**
 * Where a run says that it waits for another's lock: a warning on a terminal, with -v and in the JSON log (the status
 * reporter's `success` rule); off a terminal nothing, since a wait sat out is no problem and cron mails what reaches
 * stderr. A wait that runs out is the run's error (BusyError), which names the holder.
 */
export function waitSaidBy(status: { success(text: string): void }): (line: string) => void {
  return (line) => status.success(`warning: ${line}`);
}

/**
 * The options every run locks with: its clock and interrupt, and what it says on stderr while it waits or takes over:
 * `warn` for a lock taken over and a repair, `sayWait` for the wait (default `warn`; a run's is waitSaidBy's).
 */
export function runLockOptions(
  ctx: Pick<Context, 'signal' | 'now' | 'monotonic' | 'sleep'>,
  warn: (line: string) => void,
  waitMs: number,
  waitFlag?: string,
  sayWait: (line: string) => void = warn,
): RunLockOptions {
  return {
    waitMs,
    signal: ctx.signal,
    // The wait's deadline on the monotonic clock: a wall clock stepped back (NTP, a resumed VM) would stretch it.
    now: monotonicClock(ctx),
    sleep: ctx.sleep,
    ...(waitFlag === undefined ? {} : { waitFlag }),
    onWait: (holder, file) => sayWait(`${file} is in use by ${holder}; waiting up to ${waitMs / 1000} s`),
    // Once, as the run that was killed left it; the wait for it to go stale is spared.
    onTakeOver: (holder, file) => warn(`took over the lock on ${file} from ${holder}, which has ended`),
    onRepair: warn,
  };
}
const POLL_MS = 250;
const STARTED = new Date().toISOString();

/** The files behind the paths that need a lock, each once, with the hint of a lock not taken (opts.hints). */
async function lockableFiles(
  paths: readonly string[],
  hints: Readonly<Record<string, string>> = {},
): Promise<Map<string, string | undefined>> {
  const files = new Map<string, string | undefined>();
  for (const p of paths) {
    // A path that cannot be resolved (a folder, a missing folder) is refused by whoever opens it.
    const where = await resolveTargetPath(p).catch(() => undefined);
    if (where?.kind === 'file') files.set(where.path, Object.hasOwn(hints, p) ? hints[p] : files.get(where.path));
  }
  return files;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/**
 * What a run killed while holding `file` left beside it, repaired under the lock before anything is written: an
 * append under way (cut back unless its state was put in place), and the temporary files of `file` and of its
 * partial's state whose writer runs no more (at once for `ended`: the pids of this host whose locks were taken over).
 */
async function repairLeftBehind(file: string, warn: (line: string) => void, ended: ReadonlySet<number>): Promise<void> {
  await repairKilledAppend(file, warn);
  await removeStaleTemps(file, ended);
  await removeStaleTemps(partialStatePath(file), ended);
}

/**
 * Locks `paths` (output and state files; symlinks followed, files that do not exist yet included) for
 * this run. When another run holds one, says so once through onWait and waits up to waitMs, then
 * throws BusyError naming the holder; the lock of a run on this host that has ended is taken over at once
 * (onTakeOver). With every lock held, what killed runs left beside the files is repaired (onRepair).
 * File-system failures (a read-only folder) are CannotWriteError.
 */
export async function acquireRunLock(paths: readonly string[], opts: RunLockOptions): Promise<RunLock> {
  const hints = await lockableFiles(paths, opts.hints);
  // In one order for every run: no deadlock.
  const files = [...hints.keys()].sort();
  // Stdout, devices and pipes need no lock: a plain export then never loads the lock library.
  if (files.length === 0) return { files, check: () => {}, release: async () => {} };
  const { default: lockfile } = await import('proper-lockfile');
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? realSleep;
  const staleMs = Math.max(opts.staleMs ?? DEFAULT_STALE_MS, 2000);
  const deadline = now() + opts.waitMs;
  const held: { file: string; unlock: () => Promise<void> }[] = [];
  let lost: { file: string } | undefined;
  let told = false;
  /** The runs of this host whose locks were taken over as ended: their temporary files go at once. */
  const ended = new Set<number>();

  const removeHoldersSync = () => {
    for (const h of held) rmSync(holderFile(h.file), { force: true });
  };
  const release = async () => {
    process.off('exit', removeHoldersSync);
    for (const h of held.splice(0).reverse()) {
      await fs.rm(holderFile(h.file), { force: true }).catch(() => {});
      await h.unlock().catch(() => {}); // already gone when compromised
    }
  };

  async function lockOne(file: string): Promise<void> {
    const options: LockOptions = {
      stale: staleMs,
      realpath: false,
      lockfilePath: lockDir(file),
      onCompromised: () => {
        lost ??= { file };
      },
    };
    for (;;) {
      try {
        const unlock = await lockfile.lock(file, options);
        held.push({ file, unlock });
        await writeHolder(file, STARTED);
        return;
      } catch (err) {
        if (errnoCode(err) !== 'ELOCKED') throw cannotWrite(file, err, hints.get(file));
      }
      const left = deadline - now();
      // Read at each look: a lock whose run was killed (before this run came, or while it waits) is taken
      // over at once, rather than once it has gone stale.
      const note = await readHolder(file);
      if (note && (await takeOverIfEnded(file, note))) {
        ended.add(note.pid);
        opts.onTakeOver?.(describeHolder(note), file);
        continue;
      }
      const holder = describeHolder(note);
      if (left > 0 && !told) {
        told = true;
        opts.onWait?.(holder, file);
      }
      if (left <= 0) {
        const flag = opts.waitFlag ? `, or wait longer with ${opts.waitFlag} <seconds>` : '';
        throw new BusyError(
          `${file} is in use by ${holder}; gave up after waiting ${seconds(opts.waitMs)}`,
          `let that run finish${flag}; the lock of a run that was killed is taken over at once on its host, after ${seconds(staleMs)} elsewhere`,
        );
      }
      await sleep(Math.min(POLL_MS, left), opts.signal);
    }
  }

  process.on('exit', removeHoldersSync);
  try {
    for (const file of files) await lockOne(file);
    // Only once all are held: an append is judged by the state file beside it, locked with it.
    for (const file of files) await repairLeftBehind(file, opts.onRepair ?? (() => {}), ended);
  } catch (err) {
    await release();
    throw err;
  }
  return {
    files,
    check() {
      if (lost) {
        throw new BusyError(
          `lost the lock on ${lost.file}: this run stalled for over ${seconds(staleMs)} and another run took it over`,
          'run again once the other run has finished',
        );
      }
    },
    release,
  };
}

/** Runs `fn` with `paths` locked; the locks are released however it ends. */
export async function withRunLock<T>(
  paths: readonly string[],
  opts: RunLockOptions,
  fn: (lock: RunLock) => Promise<T>,
): Promise<T> {
  const lock = await acquireRunLock(paths, opts);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}
