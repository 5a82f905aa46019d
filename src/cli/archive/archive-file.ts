// Where the archive lives (--db > RECALL_FEED_DB > the profile's db > the XDG data folder), and opening it.
import os from 'node:os';
import path from 'node:path';
import type { Archive } from '../../archive/index.js';
import { CannotWriteError } from '../cli-errors.js';

type Env = Record<string, string | undefined>;

/** `$XDG_DATA_HOME/recall-feed/recalls.db`, with XDG's own default `~/.local/share`. */
export function defaultArchivePath(env: Env): string {
  const home = env.HOME || os.homedir();
  const data = env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  return path.join(data, 'recall-feed', 'recalls.db');
}

export function archivePath(flag: string | undefined, env: Env, profileDb: string | undefined): string {
  const chosen = [flag, env.RECALL_FEED_DB, profileDb].find((v) => v !== undefined && v !== '');
  return chosen ?? defaultArchivePath(env);
}

const WRITE_HINT = 'choose another file with --db or RECALL_FEED_DB';

/** Runs `fn`, turning a failure to write the archive (read-only, disk full, permissions) into CannotWriteError. */
export async function writing<T>(file: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const { cannotWriteReason } = await import('../../archive/index.js');
    const reason = cannotWriteReason(err);
    if (reason) throw new CannotWriteError(file, reason, WRITE_HINT);
    throw err;
  }
}

/** Opens the archive (loading SQLite only now); `create` for sync, otherwise a missing file is an error. */
export async function openArchiveFile(file: string, opts: { create: boolean }): Promise<Archive> {
  const { Archive } = await import('../../archive/index.js');
  return writing(file, () => Archive.open(file, opts));
}

/** Records handed on at once: big enough to be cheap for a renderer, small enough to keep memory flat. */
const BATCH = 500;

/** The archive's streamed records in batches, stopping between batches when the run is interrupted. */
export async function* inBatches<T>(records: Iterable<T>, signal: AbortSignal): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for (const record of records) {
    batch.push(record);
    if (batch.length < BATCH) continue;
    yield batch;
    batch = [];
    if (signal.aborted) throw signal.reason;
  }
  if (batch.length > 0) yield batch;
}
