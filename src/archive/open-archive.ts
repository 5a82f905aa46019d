// Opens the archive --db names with its engine: PostgreSQL (pg) for a URL, SQLite (better-sqlite3) for a file, each loaded only then.
import { dbTarget, type DbTarget } from './db-target.js';
import type { ArchiveStore, OpenOptions } from './store.js';

export async function openArchive(target: DbTarget | string, opts: OpenOptions): Promise<ArchiveStore> {
  const where = typeof target === 'string' ? dbTarget(target) : target;
  if (where.kind === 'postgres') {
    const { PostgresStore } = await import('./postgres/store.js');
    return PostgresStore.open(where, opts);
  }
  const { SqliteStore } = await import('./sqlite/store.js');
  return SqliteStore.open(where.file, opts);
}

/** A private archive in memory, gone when closed: `stats --live` counts the live window with the archive's own SQL. */
export async function openScratchArchive(): Promise<ArchiveStore> {
  const { SqliteStore } = await import('./sqlite/store.js');
  const { IN_MEMORY } = await import('./sqlite/open.js');
  return SqliteStore.open(IN_MEMORY, { create: true });
}
