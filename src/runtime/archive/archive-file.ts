// Where the archive lives (--db > RECALL_FEED_DB > the profile's db > the XDG data folder), and opening it.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cannotWriteReason } from '../../archive/archive-errors.js';
import { dbTarget, DbTargetError, isDbUrl, looksLikeUrl, type DbTarget } from '../../archive/db-target.js';
import type { ArchiveStore, OpenOptions } from '../../archive/store.js';
import { CannotWriteError, UsageError } from '../cli-errors.js';
import { type Context, monotonicClock } from '../context.js';
import { errnoCode } from '../files/write-errors.js';
import { xdgHome } from '../config/paths.js';
import { settingSource } from '../settings.js';

type Env = Record<string, string | undefined>;

/** What a command names as its archive: --db (a file or a postgres:// URL) and --db-schema. */
export interface DbChoice {
  db: string | undefined;
  schema: string | undefined;
}

/**
 * `$XDG_DATA_HOME/recall-feed/recalls.db`, with XDG's own default `~/.local/share`; with --sandbox
 * `recalls-sandbox.db` beside it, so the sandbox's invented recalls never mix with real ones.
 */
function defaultArchivePath(env: Env, sandbox = false): string {
  return path.join(defaultArchiveFolder(env), sandbox ? 'recalls-sandbox.db' : 'recalls.db');
}

/** The folder of the default archives: created by the first sync, where a folder --db names must exist already. */
export function defaultArchiveFolder(env: Env): string {
  const home = env.HOME || os.homedir();
  // XDG: a relative path is to be ignored (it would give each working folder its own archive).
  const data = xdgHome(env.XDG_DATA_HOME) ?? path.join(home, '.local', 'share');
  return path.resolve(data, 'recall-feed');
}

/** Whether a sync may create the folder of `target`: only the default one (see OpenOptions.createFolder). */
export function mayCreateFolder(target: DbTarget, env: Env): boolean {
  return target.kind === 'sqlite' && path.dirname(path.resolve(target.file)) === defaultArchiveFolder(env);
}

/** The settings table's `db` (--db > RECALL_FEED_DB > the profile's; an empty one counts as none), else the default. */
function archivePath(flag: string | undefined, env: Env, profileDb: string | undefined, sandbox = false): string {
  return settingSource('db', { db: flag }, env, { db: profileDb })?.raw ?? defaultArchivePath(env, sandbox);
}

/** The archive a command uses: a SQLite file or a PostgreSQL database (the URL's password kept out of its name). */
export function archiveTarget(choice: DbChoice, env: Env, profileDb: string | undefined, sandbox: boolean): DbTarget {
  const chosen = archivePath(choice.db, env, profileDb, sandbox);
  // SQLite's name for a database in memory: a sync would keep nothing, a query would find nothing.
  if (chosen.trim() === ':memory:')
    throw new UsageError(
      "':memory:' is no archive: it is gone when the command ends",
      'name a file or a postgres:// URL',
    );
  try {
    const target = dbTarget(chosen, choice.schema);
    // Said on the target, so that doctor's check before the first sync applies the rule the sync will.
    return target.kind === 'sqlite' && mayCreateFolder(target, env) ? { ...target, createsFolder: true } : target;
  } catch (err) {
    if (err instanceof DbTargetError)
      throw new UsageError(
        err.message,
        err.hint ??
          (looksLikeUrl(chosen) && !/^postgres(ql)?:\/\//i.test(chosen.trim())
            ? 'a PostgreSQL archive is postgres://user:password@host:5432/database; a file whose name holds a colon: --db ./name'
            : 'example: --db postgres://user@host:5432/db'),
      );
    throw err;
  }
}

const WRITE_HINT = 'choose another file with --db or RECALL_FEED_DB';
const FOLDER_HINT = "create the folder first, or check the path that --db, RECALL_FEED_DB or the profile's db gives";

/**
 * Runs `fn`, turning a failure to write a SQLite archive (read-only, disk full, permissions) into CannotWriteError. A
 * PostgreSQL archive's failures are the server's, named by its engine (postgres/connect.ts): a missing socket folder or
 * certificate file there is no file of the archive to write.
 */
export async function writing<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isDbUrl(name)) throw err;
    const reason = cannotWriteReason(err);
    if (reason) throw new CannotWriteError(name, reason, errnoCode(err) === 'ENOENT' ? FOLDER_HINT : WRITE_HINT);
    throw err;
  }
}

/**
 * How a writer waits for another: RECALL_FEED_DB_LOCK_WAIT seconds (default 30) on either engine, for a PostgreSQL
 * archive's write lock (then exit 13) or a SQLite file's busy timeout (then exit 9), on the run's clock; neither once
 * the command is interrupted (SIGTERM, Ctrl-C).
 */
export function writerOptions(
  ctx: Pick<Context, 'env' | 'signal' | 'now' | 'monotonic' | 'sleep'>,
): Pick<OpenOptions, 'lockWaitMs' | 'signal' | 'wait'> {
  const { signal } = ctx;
  // The wait's deadline on the monotonic clock: a wall clock stepped back (NTP, a resumed VM) would stretch it.
  const wait = { now: monotonicClock(ctx), sleep: ctx.sleep };
  const raw = ctx.env.RECALL_FEED_DB_LOCK_WAIT?.trim();
  if (raw === undefined || raw === '') return { signal, wait };
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400)
    throw new UsageError(
      `RECALL_FEED_DB_LOCK_WAIT must be a number of seconds (up to 86400), not '${raw}'`,
      'example: RECALL_FEED_DB_LOCK_WAIT=120',
    );
  // Whole milliseconds (SQLite's busy timeout takes no fraction: 1.005 s is 1004.999… ms).
  return { lockWaitMs: Math.ceil(seconds * 1000), signal, wait };
}

/** Opens the archive (loading its engine only now); `create` for sync; `readOnly` for commands that only read. */
export async function openArchiveAt(target: DbTarget, opts: OpenOptions): Promise<ArchiveStore> {
  const { openArchive } = await import('../../archive/open-archive.js');
  return target.kind === 'sqlite' ? writing(target.name, () => openArchive(target, opts)) : openArchive(target, opts);
}

/**
 * What the archive really is, whatever --db's text: the SQLite file's real absolute path (links resolved), or the
 * server, port, database and schema pg reaches (the URL with libpq's PG* variables, db-target.ts); with the id the
 * archive holds (a sync records one), so that another archive put in the same place is told apart.
 */
export async function archiveIdentity(target: DbTarget, id: string | undefined): Promise<string> {
  if (target.kind === 'postgres')
    return JSON.stringify(['postgres', target.host, target.port, target.database, target.schema, id ?? null]);
  const file = path.resolve(target.file);
  const real = await fs.realpath(file).catch(() => file);
  return JSON.stringify(['sqlite', real, id ?? null]);
}

/** Records handed on at once: big enough to be cheap for a renderer, small enough to keep memory flat. */
const BATCH = 500;

/** The archive's streamed records in batches, stopping between batches when the run is interrupted. */
export async function* inBatches<T>(records: AsyncIterable<T>, signal: AbortSignal, size = BATCH): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const record of records) {
    batch.push(record);
    if (batch.length < size) continue;
    yield batch;
    batch = [];
    if (signal.aborted) throw signal.reason;
  }
  if (batch.length > 0) yield batch;
}
