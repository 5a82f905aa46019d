// Output into a regular file: written through `<file>.partial`, put in place (or appended) only on success, resumable after a failure.
import { accessSync, fstatSync, readFileSync, constants as fsConstants, promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { BusyError, UsageError } from '../cli-errors.js';
import type { OutStream } from '../context.js';
import { appendFileBytes } from './append-file.js';
import { beginAppend, endAppend, type StagedCommit } from './append-journal.js';
import { FileWriter } from './file-writer.js';
import { type PartialState, readPartialState, writePartialState } from './partial-state.js';
import { partialPath, partialStatePath } from './sidecar-names.js';
import { cannotWrite, errnoCode, writing } from './write-errors.js';

export interface OutputTarget {
  /** stdout; a device or pipe written through; or a regular file written through its partial. */
  kind: 'stdout' | 'direct' | 'file';
  stream: Writable;
  /** Whether the output starts empty (a new file, stdout, or appending to an empty file): write headers then. */
  startsEmpty: boolean;
  /** Present when continuing a partial file. */
  resumed: PartialState | undefined;
  /** The partial file a resume continues (its records were written by the runs before). */
  partial?: string;
  /** The file whose first line heads what this output continues (appending, resuming); csv takes its columns from it. */
  headerSource?: string;
  /** The run succeeded: put the result in place. */
  commit(): Promise<void>;
  /**
   * The run failed in a way worth resuming: keep what was written, with the state. Returns the partial
   * file, or undefined when the output cannot be resumed (stdout, a device or pipe): continue by cursor.
   */
  keep(state: { cursor: string | undefined; count: number }): Promise<string | undefined>;
  /** The run failed in a way not worth resuming: leave nothing behind (a resumed partial stays, for the next try). */
  discard(): Promise<void>;
  /**
   * --append into a file (feed --state): what commit() adds belongs to `state`, put in place after it. The append's
   * journal then stays until the returned function is called, once the state is in place: a run killed before that has
   * the append cut back by the next run, whose state does not know those records. Only a regular file has it.
   */
  appendsFor?(state: StagedCommit): () => Promise<void>;
}

/**
 * The regular file stdout was sent onto, when it already holds data and was opened to append (`>> file`, as a cron
 * job or a restarted watch does): what is written continues it, so a header is not written again. Its path, where the system names a
 * descriptor's file (Linux's /proc) and this process may read it, is where csv reads the header to follow.
 */
function continuedFile(stdout: OutStream): { path: string | undefined } | undefined {
  const fd = (stdout as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return undefined;
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch {
    return undefined;
  }
  if (!stat.isFile() || stat.size === 0 || !appending(fd)) return undefined;
  const named = `/proc/self/fd/${fd}`;
  return { path: readable(named) ? named : undefined };
}

/**
 * Whether `fd` was opened to append (`>>`; not `> file` nor `1<> file`), as Linux's /proc says; false where the
 * system does not say (then a header is written).
 */
function appending(fd: number): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
    return flags !== undefined && (Number.parseInt(flags, 8) & fsConstants.O_APPEND) !== 0;
  } catch {
    return false;
  }
}

/** Whether this process may read `file` (a write-only log file it appends to is left unread). */
function readable(file: string): boolean {
  try {
    accessSync(file, fsConstants.R_OK);
    return true;
  } catch {
    return false;
  }
}

export function stdoutTarget(stdout: OutStream): OutputTarget {
  const continued = continuedFile(stdout);
  return {
    kind: 'stdout',
    stream: stdout,
    startsEmpty: continued === undefined,
    ...(continued?.path !== undefined && { headerSource: continued.path }),
    resumed: undefined,
    commit: async () => {},
    keep: async () => undefined,
    discard: async () => {},
  };
}

export interface FileTargetOptions {
  append: boolean;
  resume: boolean;
  fingerprint: string;
}

/** The file as resolveTargetPath found it: its real path (symlinks followed) and its stat, if it exists. */
export interface RealFile {
  path: string;
  stat: Stats | undefined;
}

interface Opened {
  handle: FileHandle;
  resumed: PartialState | undefined;
  /** The partial holds only the records to add to the target (--append), not the whole new file. */
  appending: boolean;
  startsEmpty: boolean;
  headerSource: string | undefined;
}

const permissions = (stat: Stats) => stat.mode & 0o7777;

/** A fresh run: a stale partial from an earlier run goes; the new one is created exclusively. */
async function openFresh(file: RealFile, partial: string, statePath: string, opts: FileTargetOptions): Promise<Opened> {
  // Found out now, not after the records were fetched: a file appended to must be writable itself.
  if (opts.append && file.stat) await writing(file.path, () => fs.access(file.path, fsConstants.W_OK));
  await writing(statePath, () => fs.rm(statePath, { force: true }));
  await writing(partial, () => fs.rm(partial, { force: true }));
  // Made with the target's permissions from the start: a 0600 file's records are never readable by others.
  const mode = file.stat ? permissions(file.stat) : 0o666;
  let handle: FileHandle;
  try {
    handle = await fs.open(partial, 'wx', mode);
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') {
      throw new BusyError(`another run is writing ${partial}`, 'let it finish, then run again');
    }
    throw cannotWrite(partial, err);
  }
  if (file.stat) {
    // The umask may have taken bits away.
    await writing(partial, () => handle.chmod(mode)).catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
  }
  const existing = opts.append ? (file.stat?.size ?? 0) : 0;
  return {
    handle,
    resumed: undefined,
    appending: opts.append,
    startsEmpty: existing === 0,
    headerSource: existing > 0 ? file.path : undefined,
  };
}

/** The version a fingerprint names (a JSON object's `version`); undefined for one written before versions. */
function fingerprintVersion(fingerprint: string): unknown {
  try {
    return (JSON.parse(fingerprint) as { version?: unknown } | null)?.version;
  } catch {
    return undefined;
  }
}

/** A resume: the partial is cut back to what its state covers and written on from there. */
async function openResumed(
  file: RealFile,
  partial: string,
  statePath: string,
  opts: FileTargetOptions,
): Promise<Opened> {
  const resumed = await readPartialState(partial, statePath);
  const again = 'resume with the exact command printed when it stopped, or run without --resume to start over';
  if (resumed.fingerprint !== opts.fingerprint) {
    if (fingerprintVersion(resumed.fingerprint) !== fingerprintVersion(opts.fingerprint)) {
      throw new UsageError(
        `cannot resume ${partial}: it was written by another version of recall-feed`,
        'run without --resume to start over',
      );
    }
    throw new UsageError(`cannot resume ${partial}: it was written with other options`, again);
  }
  // State files of earlier versions have no `append`: their partial is the whole file, either way.
  if (resumed.append !== undefined && resumed.append !== opts.append) {
    throw new UsageError(
      `cannot resume ${partial}: it was started ${resumed.append ? 'with' : 'without'} --append`,
      again,
    );
  }
  const appending = resumed.append === true;
  if (appending && file.stat) await writing(file.path, () => fs.access(file.path, fsConstants.W_OK));
  await writing(partial, () => fs.truncate(partial, resumed.bytes));
  const handle = await writing(partial, () => fs.open(partial, 'a'));
  const existing = appending ? (file.stat?.size ?? 0) : 0;
  return {
    handle,
    resumed,
    appending,
    // Nothing was written yet: headers still go first.
    startsEmpty: existing === 0 && resumed.bytes === 0,
    headerSource: existing > 0 ? file.path : resumed.bytes > 0 ? partial : undefined,
  };
}

/** Replaces the target with the partial, keeping the target's permissions (and, as root, its owner). */
async function replaceWith(partial: string, file: string): Promise<void> {
  const current = await fs.stat(file).catch(() => undefined);
  if (current) {
    await fs.chmod(partial, permissions(current));
    if (process.getuid?.() === 0) await fs.chown(partial, current.uid, current.gid).catch(() => {});
  }
  await fs.rename(partial, file);
}

/** Opens `<file>.partial` for writing; the target itself is only touched by commit(). `shown` names it in messages. */
export async function fileTarget(file: RealFile, shown: string, opts: FileTargetOptions): Promise<OutputTarget> {
  const partial = partialPath(file.path);
  const statePath = partialStatePath(file.path);
  const open = opts.resume ? openResumed : openFresh;
  const { handle, resumed, appending, startsEmpty, headerSource } = await open(file, partial, statePath, opts);
  const stream = new FileWriter(handle, partial);
  let state: StagedCommit | undefined;
  return {
    kind: 'file',
    stream,
    startsEmpty,
    resumed,
    headerSource,
    partial,
    commit: async () => {
      await stream.close();
      // Appending to a file that is not there (yet): the partial simply becomes it.
      const existing = appending ? await fs.stat(file.path).catch(() => undefined) : undefined;
      if (existing) {
        await appendFileBytes(partial, file.path, shown, state);
        await writing(partial, () => fs.rm(partial, { force: true }));
      } else {
        // A new file its state must follow: journalled as an append to nothing, cut to empty if the state never follows.
        if (appending && state) {
          const { size } = await writing(partial, () => fs.stat(partial));
          await writing(shown, () => beginAppend(file.path, partial, 0, size, state));
        }
        await writing(shown, () => replaceWith(partial, file.path));
      }
      await writing(statePath, () => fs.rm(statePath, { force: true }));
    },
    keep: async (state) => {
      await stream.close();
      const bytes = (await writing(partial, () => fs.stat(partial))).size;
      const full: PartialState = {
        version: 1,
        count: state.count,
        bytes,
        fingerprint: opts.fingerprint,
        append: appending,
      };
      if (state.cursor !== undefined) full.cursor = state.cursor;
      await writePartialState(statePath, full);
      return partial;
    },
    discard: async () => {
      await stream.abandon();
      // A resume that failed keeps what the earlier run saved: its state still says where to continue.
      if (resumed) return;
      await fs.rm(partial, { force: true });
      await fs.rm(statePath, { force: true });
    },
    appendsFor: (staged) => {
      state = staged;
      return () => endAppend(file.path);
    },
  };
}
