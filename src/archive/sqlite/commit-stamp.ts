// Commit stamps on SQLite: the archive's clock (this host's), read under the write lock, always increasing; and a digest's horizon.
import Database from 'better-sqlite3';
import { ArchiveTooOldError } from '../archive-errors.js';
import { STAMPS_VERSION } from './schema.js';

/** The next stamp, inside a write transaction: max(now, last + 1) in µs, recorded as the last. */
export class CommitStamp {
  private readonly last: Database.Statement;
  private readonly save: Database.Statement;
  constructor(
    db: Database.Database,
    private readonly now: () => number,
  ) {
    this.last = db.prepare("SELECT value FROM archive_meta WHERE key = 'commit_us'").pluck();
    this.save = db.prepare("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('commit_us', ?)");
  }

  next(): number {
    const last = Number(this.last.get() ?? 0);
    const stamp = Math.max(Math.floor(this.now() * 1000), last + 1);
    this.save.run(String(stamp));
    return stamp;
  }
}

/**
 * The stamp below which every write has committed, or undefined while a writer holds the lock (a page being
 * stored). It briefly takes the write lock (BEGIN IMMEDIATE, not waiting) on a connection of its own: a read-only
 * connection's BEGIN IMMEDIATE takes no lock. A file this process may not write is read as it is: nobody
 * writing it through this host's permissions, its newest stamp or the clock is the horizon.
 */
export function commitHorizon(db: Database.Database, file: string, now: () => number): number | undefined {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < STAMPS_VERSION) throw new ArchiveTooOldError(file, version, STAMPS_VERSION);
  const horizon = (conn: Database.Database) =>
    Math.max(
      Math.floor(now() * 1000),
      Number(conn.prepare("SELECT value FROM archive_meta WHERE key = 'commit_us'").pluck().get() ?? 0),
    );
  if (db.memory) return horizon(db);
  let writer: Database.Database;
  try {
    writer = new Database(file, { fileMustExist: true, timeout: 0 });
  } catch {
    return horizon(db);
  }
  try {
    writer.exec('BEGIN IMMEDIATE');
  } catch (err) {
    writer.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return undefined;
    return horizon(db);
  }
  try {
    return horizon(writer);
  } finally {
    writer.exec('ROLLBACK');
    writer.close();
  }
}
