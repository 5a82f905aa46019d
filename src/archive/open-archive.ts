// Opens the archive --db names with its engine: PostgreSQL (pg) for a URL, SQLite (better-sqlite3) for a file, each loaded only then.
import { sqliteDriverError } from './archive-errors.js';
import { dbTarget, type DbTarget } from './db-target.js';
import type { ArchiveStore, OpenOptions } from './store.js';

type SqliteEngine = typeof import('./sqlite/store.js');

/**
 * The SQLite engine, for the archive `file`. It imports better-sqlite3: a package missing from node_modules fails
 * here, as a SqliteDriverError (its native binding loads at the first connection: sqlite/open.ts says that one).
 * `load` is the import, or in a test one that fails.
 */
export async function loadSqliteEngine(
  file: string,
  load: () => Promise<SqliteEngine> = () => import('./sqlite/store.js'),
): Promise<SqliteEngine> {
  try {
    return await load();
  } catch (err) {
    throw sqliteDriverError(file, err) ?? err;
  }
}

export async function openArchive(target: DbTarget | string, opts: OpenOptions): Promise<ArchiveStore> {
  const where = typeof target === 'string' ? dbTarget(target) : target;
  if (where.kind === 'postgres') {
    const { PostgresStore } = await import('./postgres/store.js');
    return PostgresStore.open(where, opts);
  }
  const { SqliteStore } = await loadSqliteEngine(where.file);
  return SqliteStore.open(where.file, opts);
}

/** A private archive in memory, gone when closed: `stats --live` counts the live window with the archive's own SQL. */
export async function openScratchArchive(): Promise<ArchiveStore> {
  const { SqliteStore } = await loadSqliteEngine(':memory:');
  const { IN_MEMORY } = await import('./sqlite/open.js');
  return SqliteStore.open(IN_MEMORY, { create: true });
}
