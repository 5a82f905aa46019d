// SQLite's side of a page: each decided record inserted or updated by prepared statements, its FTS5 row replaced.
import type Database from 'better-sqlite3';
import { ftsValues, recordColumns, SQL_FILTERS, STAT_COLUMNS } from '../record-columns.js';
import type { RecallWrite, RecallWriter } from '../sql/engine.js';
import type { SqliteClient } from './client.js';
import { CommitStamp } from './commit-stamp.js';
import { FTS_COLUMNS } from './schema.js';

const COLUMNS = [
  'data_source',
  'published_at',
  'updated_at',
  'published_us',
  'updated_us',
  'created_us',
  ...SQL_FILTERS.map((f) => `filter_${f}`),
  ...Object.keys(STAT_COLUMNS).map((f) => `stat_${f}`),
  'raw',
];

/** Prepared once per connection, run synchronously inside the page's transaction (features/upsert.ts). */
export class SqliteRecalls implements RecallWriter {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly index: Database.Statement;
  private readonly unindex: Database.Statement;
  private readonly stamp: CommitStamp;

  constructor(db: Database.Database, now: () => number = Date.now) {
    this.stamp = new CommitStamp(db, now);
    // Positional parameters: better-sqlite3 binds an array by index, named ones by a property lookup each.
    const marks = COLUMNS.map(() => '?').join(', ');
    this.insert = db.prepare(
      `INSERT INTO recalls (id, version, first_run, version_run, first_us, version_us, ${COLUMNS.join(', ')}) VALUES (?, 1, ?, ?, ?, ?, ${marks})`,
    );
    this.update = db.prepare(
      `UPDATE recalls SET version = ?, version_run = ?, version_us = ?, ${COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`,
    );
    this.index = db.prepare(
      `INSERT INTO recalls_fts (rowid, ${FTS_COLUMNS.join(', ')}) VALUES (?, ${FTS_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.unindex = db.prepare('DELETE FROM recalls_fts WHERE rowid = ?');
  }

  /** Nothing ahead of the turn: most records of a sync are unchanged, and their columns are never derived. */
  prepare(): undefined {
    return undefined;
  }

  async write(_client: SqliteClient, _prepared: unknown, writes: readonly RecallWrite[], runId: number) {
    if (writes.length === 0) return;
    // Read under the write lock (BEGIN IMMEDIATE): every page committed before has a smaller stamp.
    const stamp = this.stamp.next();
    // In id order: FTS5 keeps a transaction's terms in memory only while rowids increase, and writes a segment
    // each time one is smaller than the last; the feed's newest-first order made one per record or two, and
    // merging them cost more than the rest of the page. Stable, so a record twice in a page keeps its order.
    const ordered = [...writes].sort((a, b) => a.row.record.id - b.row.record.id);
    for (const { row, version, old } of ordered) {
      const { record, raw } = row;
      const columns = recordColumns(record, raw) as unknown as Record<string, unknown>;
      const values = COLUMNS.map((c) => columns[c]);
      if (old) {
        this.update.run(version, runId, stamp, ...values, record.id);
        this.unindex.run(record.id);
      } else this.insert.run(record.id, runId, runId, stamp, stamp, ...values);
      this.index.run(record.id, ...ftsValues(record));
    }
  }
}
