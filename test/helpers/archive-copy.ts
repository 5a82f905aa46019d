// A copy of a test archive on either engine, edited with SQL behind the CLI's back (what `cases verify` must notice).
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestArchive } from './archive-engines.js';
import { copyDatabase } from './postgres.js';

let copies = 0;

/** A copy of `archive` (a file beside it, or a database made from it as a template) with `sql` run on it; its --db. */
export async function editedCopy(archive: TestArchive, sql: string): Promise<{ db: string; changed: number }> {
  if (archive.engine === 'sqlite') {
    const db = path.join(path.dirname(archive.db), `edited-${++copies}-${path.basename(archive.db)}`);
    copyFileSync(archive.db, db);
    const conn = new Database(db);
    try {
      return { db, changed: conn.prepare(sql).run().changes };
    } finally {
      conn.close();
    }
  }
  const db = await copyDatabase(archive.db);
  const client = new pg.Client({ connectionString: db, options: '-c search_path=recall_feed' });
  await client.connect();
  try {
    return { db, changed: (await client.query(sql)).rowCount ?? 0 };
  } finally {
    await client.end();
  }
}
