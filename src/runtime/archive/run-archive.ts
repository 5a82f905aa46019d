// The archive a run declares it uses (`uses.archive`), opened by the session before the job; a probe of one that may not exist; a scratch one.
import { ArchiveMissingError } from '../../archive/archive-errors.js';
import type { DbTarget } from '../../archive/db-target.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { Context } from '../context.js';
import type { Settings } from '../settings.js';
import type { StatusReporter } from '../terminal/status.js';
import { type DbChoice, mayCreateFolder, openArchiveAt, writerOptions } from './archive-file.js';

/** The archive a command's run uses: which one (--db), and how. */
export interface ArchiveUse {
  db: DbChoice;
  /**
   * `read`: read-only (a read-only file, mount or database role will do); `write`: one that exists, written (a case
   * step, cases opened from the archive); `create`: created when missing, as a sync creates it.
   */
  mode: 'read' | 'write' | 'create';
  /** With `read`: a missing archive is no error, and the job gets none (`show` then looks in the live window). */
  optional?: boolean;
}

/** Opens the archive `use` names at `target`; undefined only when it is optional and missing. */
export async function openUsedArchive(
  use: ArchiveUse,
  target: DbTarget,
  run: {
    settings: Pick<Settings, 'verbose'>;
    status: StatusReporter;
    ctx: Pick<Context, 'env' | 'signal' | 'now' | 'sleep' | 'pinned'>;
  },
): Promise<ArchiveStore | undefined> {
  if (run.settings.verbose && use.mode !== 'write') run.status.note(`archive: ${target.name}`);
  // A pinned world's clock: its commit stamps and a digest's horizon in its time. Otherwise the archive's own clock.
  const now = run.ctx.pinned ? run.ctx.now : undefined;
  if (use.mode === 'read') return readOnly(target, use.optional ?? false, now, run.ctx.signal);
  const create = use.mode === 'create';
  return openArchiveAt(target, {
    create,
    createFolder: create && mayCreateFolder(target, run.ctx.env),
    ...writerOptions(run.ctx),
    ...(now && { now }),
  });
}

/** `signal`: the run's stop, which ends a PostgreSQL statement waiting behind another session's lock (exit 130). */
async function readOnly(
  target: DbTarget,
  optional: boolean,
  now?: () => number,
  signal?: AbortSignal,
): Promise<ArchiveStore | undefined> {
  try {
    return await openArchiveAt(target, {
      create: false,
      readOnly: true,
      ...(now && { now }),
      ...(signal && { signal }),
    });
  } catch (err) {
    if (optional && err instanceof ArchiveMissingError) return undefined;
    throw err;
  }
}

/**
 * Reads the archive at `target` read-only with `read`, closed however it ends; undefined when there is none (doctor,
 * before the first sync). Any other failure to open it is thrown.
 */
export async function probeArchive<T>(
  target: DbTarget,
  read: (archive: ArchiveStore) => Promise<T>,
): Promise<T | undefined> {
  const archive = await readOnly(target, true);
  if (archive === undefined) return undefined;
  try {
    return await read(archive);
  } finally {
    await archive.close();
  }
}

/** A private archive in memory for `fn` (`stats --live` counts the live window with the archive's own SQL), gone after. */
export async function withScratchArchive<T>(fn: (archive: ArchiveStore) => Promise<T>): Promise<T> {
  const { openScratchArchive } = await import('../../archive/open-archive.js');
  const archive = await openScratchArchive();
  try {
    return await fn(archive);
  } finally {
    await archive.close();
  }
}
