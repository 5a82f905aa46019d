// Output into a regular file: written through `<file>.partial`, put in place (or appended) only on success, resumable after a failure.
import { accessSync, fstatSync, readFileSync, constants as fsConstants, promises as fs, type Stats } from 'node:fs';
import type { Writable } from 'node:stream';
import type { OutStream } from '../context.js';
import { appendFileBytes } from './append-file.js';
import { beginAppend, endAppend, type StagedCommit } from './append-journal.js';
import { FileWriter } from './file-writer.js';
import { type FileTargetOptions, openFresh, openResumed, type RealFile, replaceWith } from './partial-open.js';
import { type PartialState, writePartialState } from './partial-state.js';
import { partialPath, partialStatePath } from './sidecar-names.js';
import { writing } from './write-errors.js';

export type { FileTargetOptions, RealFile } from './partial-open.js';

/** What a failed run kept for --resume: the partial file, and the records its state says it holds. */
export interface Kept {
  partial: string;
  count: number;
}

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
   * The run failed in a way worth resuming: keep what was written, with the state. Returns the partial file and the
   * records its state covers, or undefined when the output cannot be resumed (stdout, a device or pipe): continue by
   * cursor.
   */
  keep(state: { cursor: string | undefined; count: number }): Promise<Kept | undefined>;
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
        await writing(shown, () => replaceWith(partial, file.path, shown, opts.warn));
      }
      await writing(statePath, () => fs.rm(statePath, { force: true }));
    },
    keep: async (state) => {
      const saved = (async (): Promise<Kept> => {
        // Throws the writer's own failure (the disk full): what it was given may not all be in the file, and no new
        // state may say it is. close() fsyncs the partial before the state is written: after a power cut the state
        // never describes bytes the partial lost (and a --resume refuses a partial shorter than its state).
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
        // As root, the target's owner's, as the partial is (partial-open.ts): that user may resume it.
        await writePartialState(statePath, full, file.stat && { uid: file.stat.uid, gid: file.stat.gid });
        return { partial, count: state.count };
      })();
      if (!resumed) return saved;
      // A --resume that fails in its turn, for any reason, keeps its partial and prints the command again
      // (docs/formats.md): the state it started from (replaced in one step, never half written) still says where the
      // partial's records end, and the next --resume cuts off what came after.
      return saved.catch(() => ({ partial, count: resumed.count }));
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
