// A test archive on either engine edited with SQL behind the CLI's back (in place, or a copy for `cases verify` to
// notice), and the CLI's output with the wall clock taken out, to compare the engines.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestArchive } from './archive-engines.js';
import { copyDatabase } from './postgres.js';

let copies = 0;

/** One connection to the archive itself (tables in the default schema on PostgreSQL) for many writing statements. */
export interface ArchiveEditor {
  /** Runs one writing statement; rows changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  close(): Promise<void>;
}

export async function archiveEditor(archive: TestArchive): Promise<ArchiveEditor> {
  if (archive.engine === 'sqlite') {
    const conn = new Database(archive.db);
    return {
      run: async (sql, params = []) => conn.prepare(sql).run(...params).changes,
      close: async () => void conn.close(),
    };
  }
  const client = new pg.Client({ connectionString: archive.db, options: '-c search_path=recall_feed' });
  await client.connect();
  return {
    run: async (sql, params = []) => (await client.query(sql, params)).rowCount ?? 0,
    close: () => client.end(),
  };
}

/** Runs one writing statement on the archive itself, on a connection of its own; rows changed. */
export async function editArchive(archive: TestArchive, sql: string, params: unknown[] = []): Promise<number> {
  const editor = await archiveEditor(archive);
  try {
    return await editor.run(sql, params);
  } finally {
    await editor.close();
  }
}

/** A copy of `archive` (a file beside it, or a database made from it as a template) with `sql` run on it; its --db. */
export async function editedCopy(archive: TestArchive, sql?: string): Promise<{ db: string; changed: number }> {
  if (archive.engine === 'sqlite') {
    const db = path.join(path.dirname(archive.db), `edited-${++copies}-${path.basename(archive.db)}`);
    copyFileSync(archive.db, db);
    if (sql === undefined) return { db, changed: 0 };
    const conn = new Database(db);
    try {
      return { db, changed: conn.prepare(sql).run().changes };
    } finally {
      conn.close();
    }
  }
  const db = await copyDatabase(archive.db);
  if (sql === undefined) return { db, changed: 0 };
  const client = new pg.Client({ connectionString: db, options: '-c search_path=recall_feed' });
  await client.connect();
  try {
    return { db, changed: (await client.query(sql)).rowCount ?? 0 };
  } finally {
    await client.end();
  }
}

/**
 * What only the wall clock decides, taken out: the times the CLI stamps (ISO with milliseconds and Z) and the hashes
 * that cover them. Everything else (ids, order, actors, notes, statuses, recall data) must be the same bytes.
 */
export const clockFree = (text: string) =>
  text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>').replace(/\b[0-9a-f]{64}\b/g, '<hash>');
