// Opens an archive file: WAL, a busy timeout, the schema brought forward; a newer or foreign file is refused untouched.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ArchiveMissingError, ArchiveTooNewError, NotAnArchiveError } from './archive-errors.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** How long a writer waits for another one (a concurrent sync) to finish its page. */
export const BUSY_TIMEOUT_MS = 30_000;

/** An in-memory archive (stats over the live window). */
export const IN_MEMORY = ':memory:';

export interface OpenOptions {
  /** Create the file and its folder when missing (sync). Otherwise a missing file is ArchiveMissingError. */
  create: boolean;
}

export function openDatabase(file: string, opts: OpenOptions): Database.Database {
  const memory = file === IN_MEMORY;
  if (!memory && !existsSync(file)) {
    if (!opts.create) throw new ArchiveMissingError(file);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    checkIdentity(db, file);
    // Before anything that writes: a newer file is left exactly as it is.
    const found = version(db);
    if (found > SCHEMA_VERSION) throw new ArchiveTooNewError(file, found, SCHEMA_VERSION);
    // Readers never block the writer, and the busy timeout queues writers (two syncs at once).
    if (!memory) db.pragma('journal_mode = WAL');
    // With WAL, NORMAL keeps every commit atomic and the file consistent; only the last commits may be lost on power loss.
    db.pragma('synchronous = NORMAL');
    migrate(db, file);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function checkIdentity(db: Database.Database, file: string): void {
  let appId: number;
  try {
    appId = db.pragma('application_id', { simple: true }) as number;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_NOTADB') throw new NotAnArchiveError(file, 'not a SQLite database');
    throw err;
  }
  if (appId === APPLICATION_ID) return;
  if (appId !== 0) throw new NotAnArchiveError(file, 'it belongs to another program');
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as {
    n: number;
  };
  if (tables.n > 0) throw new NotAnArchiveError(file, 'a SQLite database of another program');
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
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v] as string);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    db.pragma(`application_id = ${APPLICATION_ID}`);
  }).immediate();
}
