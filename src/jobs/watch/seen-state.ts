// The ids already written, kept in memory and (with --state) in a 0600 file: checked before any request, staged before the output is committed.
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { PendingDelivery } from '../../actions/delivery-queue.js';
import { timestampMicros } from '../../api/timestamps.js';
import { fileErrorWords } from '../../archive/archive-errors.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { StagedCommit } from '../../runtime/files/append-journal.js';
import { atomicTempPath, type Owner, writeFileSynced } from '../../runtime/files/atomic-write.js';
import { createFresh } from '../../runtime/files/fresh-file.js';
import { realFilePath } from '../../runtime/files/target-path.js';
import { cannotWrite } from '../../runtime/files/write-errors.js';
import { checkStateFile, type StateFileCheck, type StateFileV1 } from './state-file.js';

/** A state file that cannot be read or is not ours: a usage error (exit 2), never a silent re-emit of everything. */
export class StateFileError extends UsageError {
  override name = 'StateFileError';
}

/** How long after its publication an id is kept: the widest window (24 h) plus a margin for clock skew. */
export const KEEP_MS = 25 * 3_600_000;

const WHY = 'the state is what keeps each recall from being written twice';
/** The hint of a state that cannot be written: its probe, its save, and its run lock (feed-run.ts). */
export const STATE_WRITE_HINT = `give --state a file in a folder this user can write to: ${WHY}`;
const READ_HINT = `give --state a file this user can read and write: ${WHY}`;

/** Naive ISO timestamps of the API are UTC. */
export function publishedMs(record: Record<string, unknown>, fallback: number): number {
  const raw = record.published_at;
  if (typeof raw !== 'string') return fallback;
  const us = timestampMicros(raw);
  return Number.isNaN(us) ? fallback : Math.floor(us / 1000);
}

/** A state that cannot be written ends the run with exit 10, naming the file and the reason. */
const cannotWriteState = (file: string, err: unknown) => cannotWrite(file, err, STATE_WRITE_HINT);

/**
 * Where the state `file` is read and written: symbolic links followed, also a dangling one. A path whose links cannot
 * be followed (a loop) is CannotWriteError, as a run says it.
 */
export function stateWritePath(file: string): Promise<string> {
  return realFilePath(file).catch((err: unknown) => {
    throw cannotWriteState(file, err);
  });
}

/**
 * What a run's probe of the state would say, found without writing (doctor): CannotWriteError (exit 10 in a run) when
 * the folder the state is written in (through its links) is missing or this user may not write there; else its path.
 */
export async function checkStateWritable(file: string): Promise<string> {
  const real = await stateWritePath(file);
  try {
    await fs.access(path.dirname(real), constants.W_OK | constants.X_OK);
  } catch (err) {
    throw cannotWriteState(real, err);
  }
  return real;
}

export class SeenState {
  /** id -> epoch ms: its published_at, or when a poll last returned it once that is too old to keep it (prune). */
  private readonly seen = new Map<string, number>();
  /** The ids the API returned in the poll under way, noted by pollNew for the prune that ends it. */
  private readonly returnedNow = new Set<string>();
  private pending: PendingDelivery[] = [];
  /** Whether memory differs from the file: a run that found nothing new writes nothing. */
  private dirty = false;
  /** A temporary file beside the state holding what is not yet in place. */
  private staged = false;

  private constructor(private readonly file: string | undefined) {}

  static memory(): SeenState {
    return new SeenState(undefined);
  }

  /**
   * Loads `file`, or starts empty when it does not exist yet. Then checks that it can be written:
   * a state that cannot be saved must stop the run before any request, not after the output.
   */
  static async load(file: string): Promise<SeenState> {
    // A state behind a symbolic link is saved where the link points (as -o files are), not over the link,
    // which is also the file the run lock holds. A dangling link is followed too: a first run creates the
    // file it names, and a link into a folder that is gone (an unmounted volume) fails the probe below,
    // rather than starting from an empty state and writing every recall again.
    const real = await stateWritePath(file);
    const state = new SeenState(real);
    let raw: string | undefined;
    try {
      raw = await fs.readFile(real, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A path that can never hold a file is a place the state cannot be written to, not a damaged state.
      if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') throw cannotWriteState(file, err);
      if (code !== 'ENOENT')
        throw new StateFileError(
          `cannot read the state file ${real}: ${fileErrorWords(err, 'read') ?? (err as Error).message}`,
          READ_HINT,
        );
    }
    if (raw !== undefined) state.parse(raw);
    await state.probe();
    return state;
  }

  private parse(raw: string): void {
    let checked: StateFileCheck = {};
    try {
      checked = checkStateFile(JSON.parse(raw));
    } catch {
      // Not JSON: not ours, or damaged.
    }
    const { state, entry } = checked;
    if (state === undefined) {
      throw new StateFileError(
        `the state file ${this.file} is not one this tool wrote (or it is damaged)${entry ? `: ${entry}` : ''}`,
        'move it away to start afresh: every recall in the window will then be written again',
      );
    }
    for (const [id, at] of Object.entries(state.seen)) this.seen.set(id, at * 1000);
    this.pending = state.pending ?? [];
  }

  /** The file beside the state where the next version is written before it replaces the state. */
  private get tmp(): string {
    return atomicTempPath(this.file as string);
  }

  /**
   * Creates and removes the temporary file: a missing or read-only folder, or a name too long, shows now. Made afresh
   * (createFresh), as every temporary file is: a link planted at its name is never written through.
   */
  private async probe(): Promise<void> {
    try {
      await (await createFresh(this.tmp)).close();
    } catch (err) {
      throw cannotWriteState(this.file as string, err);
    }
    await fs.rm(this.tmp, { force: true });
  }

  get size(): number {
    return this.seen.size;
  }

  has(id: unknown): boolean {
    return this.seen.has(String(id));
  }

  add(id: unknown, publishedAtMs: number): void {
    this.seen.set(String(id), publishedAtMs);
    this.dirty = true;
  }

  /** Deliveries still owed, as the last run left them: kept until every action succeeded, whatever the window. */
  get deliveries(): readonly PendingDelivery[] {
    return this.pending;
  }

  setDeliveries(pending: readonly PendingDelivery[]): void {
    this.pending = [...pending];
    this.dirty = true;
  }

  /** The API returned `id` in the poll under way (new or not, whatever the filters): see prune(). */
  returned(id: unknown): void {
    this.returnedNow.add(String(id));
  }

  /**
   * Forgets ids published so long ago that no window can return them again (`now`: the poll's clock, windowClock). An id
   * the API returned in this poll all the same (its clock is far behind ours, or its answer is outside its window) is
   * kept, from `now`: forgotten 25 hours after the last poll that returned it, never while it is still returned, so it
   * is written (and acted on) once. Only ids an answer of the last 25 hours held are kept: the state stays bounded.
   */
  prune(now: number): void {
    const horizon = now - KEEP_MS;
    for (const [id, at] of this.seen) {
      if (at >= horizon) continue;
      if (this.returnedNow.has(id)) this.seen.set(id, now);
      else this.seen.delete(id);
      this.dirty = true;
    }
    this.returnedNow.clear();
  }

  /**
   * Writes the state (when anything changed) to its temporary file, mode 0600. Called before the
   * output it covers is committed, so that a full disk fails the run while nothing is written yet.
   */
  async stage(): Promise<void> {
    if (!this.file || !this.dirty) return;
    const seen: Record<string, number> = {};
    for (const [id, at] of this.seen) seen[id] = Math.floor(at / 1000);
    const body: StateFileV1 = { version: 1, seen };
    if (this.pending.length > 0) body.pending = this.pending;
    try {
      await writeFileSynced(this.tmp, `${JSON.stringify(body)}\n`, undefined, await this.owner());
    } catch (err) {
      await this.unstage();
      throw cannotWriteState(this.file, err);
    }
    this.staged = true;
  }

  /**
   * As root, the owner and group of the state file replaced (a user's, whose cron job must still read and write it), as
   * -o's target keeps its owner; undefined otherwise, or for a new file.
   */
  private async owner(): Promise<Owner | undefined> {
    if (!this.file || process.getuid?.() !== 0) return undefined;
    const found = await fs.stat(this.file).catch(() => undefined);
    return found && { uid: found.uid, gid: found.gid };
  }

  /** The staged state and where it goes, while one is staged: an append it covers is cut back unless it is put in place. */
  get stagedCommit(): StagedCommit | undefined {
    return this.file && this.staged ? { file: this.file, staged: this.tmp } : undefined;
  }

  /**
   * Puts the staged state in place, after the output: a crash between the two never loses a record, and repeats none in
   * an -o --append file (the next run cuts back the rows appended for a state never put in place: stagedCommit).
   */
  async commit(): Promise<void> {
    if (!this.file || !this.staged) return;
    try {
      await fs.rename(this.tmp, this.file);
    } catch (err) {
      await this.unstage();
      throw cannotWriteState(this.file, err);
    }
    this.staged = false;
    this.dirty = false;
  }

  /** Drops a staged state whose output was not committed. */
  async unstage(): Promise<void> {
    if (!this.file) return;
    await fs.rm(this.tmp, { force: true });
    this.staged = false;
  }
}
