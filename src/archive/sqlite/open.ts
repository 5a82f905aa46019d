// Opens an archive file: WAL, a busy timeout, the schema brought forward; a newer or foreign file is refused untouched.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  ArchiveBusyError,
  ArchiveCorruptError,
  ArchiveMissingError,
  ArchiveTooNewError,
  ArchiveTooOldError,
  NotAnArchiveError,
  sqliteDriverError,
} from '../archive-errors.js';
import { BUSY_TIMEOUT_MS, type BusyWait, REAL_WAIT, type Waiting, whenNotBusy } from './busy-wait.js';
import type { OpenOptions } from '../store.js';
import { interimFts, repairInterimFts } from './fts-repair.js';
import { APPLICATION_ID, FTS_REPAIR_VERSION, MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/**
 * A new archive's page size. A recall's row is about 2.5 KB (its raw JSON and the columns beside it): 4 KiB pages held
 * 1.4 of them and left a sixth of the table empty, and each page costs its own WAL frame, checksum and b-tree split.
 * Older archives keep the size they were made with.
 */
export const PAGE_SIZE = 16_384;

/**
 * A writer's page cache, set on every writable open. It must be set again after the page size: a new file's identity
 * and version are read first, with SQLite's 4 KiB pages, and SQLite keeps the number of pages its default cache
 * (16,000 KiB in better-sqlite3's build) held at that size, about 3,900, when the pages become 16 KiB. That cache of
 * some 60 MB cost a sync of 20,000 recalls 46-52 MB more memory and 11-19% more CPU, in page faults. From 2 to 16 MiB
 * the sync writes the same bytes (a page of the feed dirties less than 2 MiB); 8 MiB took the CPU 16 MiB did, with
 * 9 MB less memory (bench/README.md, sync-cost.mjs).
 */
const CACHE_KIB = 8_192;

/** An in-memory archive (stats over the live window). */
export const IN_MEMORY = ':memory:';

/** The native binding's file when a test names one (useNativeBinding); else better-sqlite3 finds its own. */
let bindingFile: string | undefined;

/**
 * For tests only: connections load better-sqlite3's native binding from `file` (a file that is no binding fails as a
 * broken install does, without touching node_modules). Returns its undoing, for the test's cleanup.
 */
export function useNativeBinding(file: string): () => void {
  const before = bindingFile;
  bindingFile = file;
  return () => {
    bindingFile = before;
  };
}

/**
 * A connection to `source` (the archive `file`, or a copy of it in memory). better-sqlite3 loads its native binding
 * at the first one: a binding that cannot load (see sqliteDriverError) is a SqliteDriverError.
 */
function connect(file: string, source: string | Buffer, options: Database.Options): Database.Database {
  try {
    return new Database(source, bindingFile === undefined ? options : { ...options, nativeBinding: bindingFile });
  } catch (err) {
    throw sqliteDriverError(file, err) ?? err;
  }
}

/**
 * A damaged file (SQLITE_CORRUPT*, or SQLITE_NOTADB once the header was read) as ArchiveCorruptError; a file still
 * locked when the busy timeout (`waitedMs`) ran out (SQLITE_BUSY: another writer, or readers while a sync enters WAL)
 * as ArchiveBusyError; others as they are.
 */
export function archiveErrorOf(file: string, err: unknown, waitedMs = BUSY_TIMEOUT_MS): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return new ArchiveCorruptError(file, (err as Error).message);
  if (code === 'SQLITE_BUSY') return new ArchiveBusyError(file, waitedMs / 1000);
  return err;
}

/**
 * Puts the file in WAL mode. A file in rollback mode (a new one, or one a sync left so: leaveWal) needs its header
 * rewritten for that, which needs the file to itself: another process writing at that moment (a concurrent sync
 * creating the archive or storing a page) fails it at once with SQLITE_BUSY, and one reading it (a query whose
 * output is paged, the sqlite3 shell, Datasette) makes SQLite's busy handler wait, blocking the thread and with it
 * Ctrl-C. So each try fails at once (busy_timeout 0), and the tries are paused between asynchronously until the busy
 * timeout (`timeoutMs`); aborting `signal` (the run interrupted) ends the wait at once with its reason.
 */
export async function enterWal(
  db: Database.Database,
  wait: BusyWait = REAL_WAIT,
  signal?: AbortSignal,
  timeoutMs = BUSY_TIMEOUT_MS,
): Promise<void> {
  await whenNotBusy(db, () => db.pragma('journal_mode = WAL'), wait, signal, timeoutMs);
}

/** How a writer opened with `opts` waits for the file: RECALL_FEED_DB_LOCK_WAIT's lockWaitMs, else the busy timeout. */
export function writerWaiting(opts: OpenOptions): Waiting & { timeoutMs: number } {
  return {
    ...(opts.wait && { wait: opts.wait }),
    ...(opts.signal && { signal: opts.signal }),
    timeoutMs: opts.lockWaitMs ?? BUSY_TIMEOUT_MS,
  };
}

/** A folder a new archive goes into, when it may not be created: ENOENT when missing, ENOTDIR when a file (as fs says). */
function checkFolder(folder: string): void {
  const found = statSync(folder, { throwIfNoEntry: false });
  if (found === undefined) throw Object.assign(new Error(`no folder ${folder}`), { code: 'ENOENT' });
  if (!found.isDirectory()) throw Object.assign(new Error(`not a folder: ${folder}`), { code: 'ENOTDIR' });
}

/** Whether `file` is a folder; a path through a file (ENOTDIR) or one we may not look at is left to the open to say. */
function isFolder(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

export async function openDatabase(file: string, opts: OpenOptions): Promise<Database.Database> {
  const memory = file === IN_MEMORY;
  // SQLite reports a folder as an input/output error, which sent users to check the disk.
  if (!memory && isFolder(file)) throw new NotAnArchiveError(file, 'it is a folder');
  if (!memory && !existsSync(file)) {
    if (!opts.create) throw new ArchiveMissingError(file);
    const folder = path.dirname(path.resolve(file));
    if (opts.createFolder) mkdirSync(folder, { recursive: true });
    else checkFolder(folder);
  }
  if (opts.readOnly && !memory) return openReadOnly(file);
  const waiting = writerWaiting(opts);
  const db = connect(file, file, { timeout: waiting.timeoutMs });
  try {
    checkIdentity(db, file);
    // Before anything that writes: a newer file is left exactly as it is.
    const found = version(db);
    if (found > SCHEMA_VERSION) throw new ArchiveTooNewError(file, found, SCHEMA_VERSION);
    // Only a file with nothing in it yet takes a page size (SQLite ignores it after the first write); see PAGE_SIZE.
    if (found === 0) db.pragma(`page_size = ${PAGE_SIZE}`);
    // Once in WAL readers never block the writer, and the busy timeout queues writers (two syncs at once).
    if (!memory) await enterWal(db, waiting.wait, waiting.signal, waiting.timeoutMs);
    db.pragma(`cache_size = -${CACHE_KIB}`);
    // With WAL, NORMAL keeps every commit atomic and the file consistent; only the last commits may be lost on power loss.
    db.pragma('synchronous = NORMAL');
    migrate(db, file);
    return db;
  } catch (err) {
    db.close();
    throw archiveErrorOf(file, err, waiting.timeoutMs);
  }
}

/**
 * Opens for reading only: the file itself is never written. One in rollback mode (as a sync leaves it) is read with
 * no -wal or -shm. One left in WAL mode (a sync killed, or another program's `journal_mode=wal`) is read through
 * them: SQLite creates them where the folder may be written, and a read-only connection cannot remove them (the next
 * sync does). `immutable` would spare them, but a sync that starts meanwhile changes the file's pages under such a
 * reader at its checkpoint (SQLITE_CORRUPT). In a folder we cannot write (a read-only mount) SQLite cannot open a
 * WAL file read-only at all; it is then read from a copy in memory, whose header says rollback mode.
 */
function openReadOnly(file: string): Database.Database {
  let db: Database.Database;
  try {
    db = connect(file, file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    db.pragma('schema_version');
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    // A file that is no SQLite database at all (a catalogue given as --db) is not a damaged archive: it is none.
    if (code === 'SQLITE_NOTADB') throw new NotAnArchiveError(file, 'not a SQLite database');
    const wal = `${file}-wal`;
    const walEmpty = !existsSync(wal) || statSync(wal).size === 0;
    if (!(code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_CANTOPEN') || !walEmpty)
      throw archiveErrorOf(file, err);
    const copy = readFileSync(file);
    // Bytes 18 and 19 are the file format versions: 2 means WAL, 1 rollback.
    if (copy.length >= 20 && copy[18] === 2) copy.fill(1, 18, 20);
    db = connect(file, copy, { readonly: true });
  }
  try {
    checkIdentity(db, file);
    const found = version(db);
    if (found > SCHEMA_VERSION) throw new ArchiveTooNewError(file, found, SCHEMA_VERSION);
    if (found === 0) throw new ArchiveMissingError(file);
    // The interim token-only index refuses the phrases --search asks; a sync rebuilds it (fts-repair.ts).
    if (found < FTS_REPAIR_VERSION && interimFts(db))
      throw new ArchiveTooOldError(file, found, FTS_REPAIR_VERSION, 'its interim full-text index');
    return db;
  } catch (err) {
    db.close();
    throw archiveErrorOf(file, err);
  }
}

/**
 * After a sync: back to rollback mode when no one else has the file open, so that readers without write access
 * to the folder can open it (a WAL file needs its -shm). Another connection keeps it in WAL; it does this later.
 */
export function leaveWal(db: Database.Database): void {
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('journal_mode = DELETE');
  } catch {
    // Busy: another sync or reader has the file open; the last one to close switches.
  }
}

/**
 * The file's application id and its count of tables, read by one statement, so from one snapshot: read apart, a sync
 * creating the archive at that moment could commit between them, and its new tables under the id read before it
 * looked like another program's database.
 */
const IDENTITY = `SELECT (SELECT application_id FROM pragma_application_id()) AS appId,
  (SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%') AS tables`;

function checkIdentity(db: Database.Database, file: string): void {
  let found: { appId: number; tables: number };
  try {
    found = db.prepare(IDENTITY).get() as { appId: number; tables: number };
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_NOTADB') throw new NotAnArchiveError(file, 'not a SQLite database');
    throw err;
  }
  if (found.appId === APPLICATION_ID) return;
  if (found.appId !== 0) throw new NotAnArchiveError(file, 'it belongs to another program');
  if (found.tables > 0) throw new NotAnArchiveError(file, 'a SQLite database of another program');
}

function version(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Database.Database, file: string): void {
  if (version(db) === SCHEMA_VERSION) return;
  // IMMEDIATE: a concurrent opener waits here, then sees the version this one wrote.
  db.transaction(() => {
    const current = version(db);
    if (current > SCHEMA_VERSION) throw new ArchiveTooNewError(file, current, SCHEMA_VERSION);
    for (let v = current; v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v] as string);
      if (v + 1 === FTS_REPAIR_VERSION) repairInterimFts(db);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    db.pragma(`application_id = ${APPLICATION_ID}`);
  }).immediate();
}
