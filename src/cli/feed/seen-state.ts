// The ids already written, kept in memory and (with --state) in a 0600 file saved atomically; old ids are pruned.
import { promises as fs } from 'node:fs';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../files/atomic-write.js';

/** A state file that cannot be used: a usage error (exit 2), never a silent re-emit of everything. */
export class StateFileError extends UsageError {
  override name = 'StateFileError';
}

/** How long after its publication an id is kept: the widest window (24 h) plus a margin for clock skew. */
export const KEEP_MS = 25 * 3_600_000;

interface StateFileV1 {
  version: 1;
  /** id -> epoch seconds of its published_at (or of when it was first seen, for records without one). */
  seen: Record<string, number>;
}

/** Naive ISO timestamps of the API are UTC. */
export function publishedMs(record: Record<string, unknown>, fallback: number): number {
  const raw = record.published_at;
  if (typeof raw !== 'string') return fallback;
  const hasZone = /([zZ]|[+-]\d\d:?\d\d)$/.test(raw);
  const ms = Date.parse(hasZone ? raw : `${raw}Z`);
  return Number.isNaN(ms) ? fallback : ms;
}

export class SeenState {
  private readonly seen = new Map<string, number>();
  /** Whether memory differs from the file: a poll that found nothing new writes nothing. */
  private dirty = false;

  private constructor(private readonly file: string | undefined) {}

  static memory(): SeenState {
    return new SeenState(undefined);
  }

  /** Loads `file`, or starts empty when it does not exist yet. */
  static async load(file: string): Promise<SeenState> {
    const state = new SeenState(file);
    let raw: string;
    try {
      raw = await fs.readFile(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return state;
      throw new StateFileError(`cannot read the state file ${file}: ${code ?? (err as Error).message}`);
    }
    let parsed: StateFileV1;
    try {
      parsed = JSON.parse(raw) as StateFileV1;
    } catch {
      parsed = undefined as unknown as StateFileV1;
    }
    if (!parsed || parsed.version !== 1 || typeof parsed.seen !== 'object' || parsed.seen === null) {
      throw new StateFileError(
        `the state file ${file} is not one this tool wrote (or it is damaged)`,
        'move it away to start afresh: every recall in the window will then be written again',
      );
    }
    for (const [id, at] of Object.entries(parsed.seen)) {
      if (typeof at === 'number') state.seen.set(id, at * 1000);
    }
    return state;
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

  /** Forgets ids published so long ago that no window can return them again. */
  prune(now: number): void {
    const horizon = now - KEEP_MS;
    for (const [id, at] of this.seen) {
      if (at < horizon) {
        this.seen.delete(id);
        this.dirty = true;
      }
    }
  }

  /** Writes the file atomically (temp file + rename), mode 0600, when anything changed. No-op without a file. */
  async save(): Promise<void> {
    if (!this.file || !this.dirty) return;
    const seen: Record<string, number> = {};
    for (const [id, at] of this.seen) seen[id] = Math.floor(at / 1000);
    const body: StateFileV1 = { version: 1, seen };
    try {
      await writeFileAtomic(this.file, `${JSON.stringify(body)}\n`);
    } catch (err) {
      throw new StateFileError(`cannot write the state file ${this.file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
    this.dirty = false;
  }
}
