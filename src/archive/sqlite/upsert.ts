// Stores a page of records in one transaction: new ones inserted, changed ones updated with the old version kept.
import type Database from 'better-sqlite3';
import { ftsValues, recordColumns, SQL_FILTERS, STAT_COLUMNS } from '../record-columns.js';
import type { ArchivedRecord, UpsertCounts } from '../store.js';
import { CaseReopener } from './cases-reopen.js';
import { CommitStamp } from './commit-stamp.js';
import type { OutboxWriter } from './outbox.js';
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

interface Existing {
  raw: string;
  version: number;
  updated_at: string | null;
  updated_us: number | null;
  version_run: number | null;
}

export class Upserter {
  private readonly find: Database.Statement<[number], Existing>;
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly keep: Database.Statement;
  private readonly count: Database.Statement;
  private readonly index: Database.Statement;
  private readonly unindex: Database.Statement;
  private readonly write: (records: readonly ArchivedRecord[], runId: number) => UpsertCounts;
  private readonly cases: CaseReopener;
  private readonly stamp: CommitStamp;
  /** Set when the sync has actions: the page's new recalls and versions are queued in its transaction. */
  outbox: OutboxWriter | undefined;

  constructor(db: Database.Database, now: () => number = Date.now) {
    this.cases = new CaseReopener(db, now);
    this.stamp = new CommitStamp(db, now);
    this.find = db.prepare('SELECT raw, version, updated_at, updated_us, version_run FROM recalls WHERE id = ?');
    const names = COLUMNS.map((c) => `@${c}`).join(', ');
    this.insert = db.prepare(
      `INSERT INTO recalls (id, version, first_run, version_run, first_us, version_us, ${COLUMNS.join(', ')}) VALUES (@id, 1, @run, @run, @stamp, @stamp, ${names})`,
    );
    this.update = db.prepare(
      `UPDATE recalls SET version = @version, version_run = @run, version_us = @stamp, ${COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
    );
    this.keep = db.prepare(
      'INSERT OR IGNORE INTO recall_versions (recall_id, version, updated_at, stored_run, replaced_run, raw) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.index = db.prepare(
      `INSERT INTO recalls_fts (rowid, ${FTS_COLUMNS.join(', ')}) VALUES (?, ${FTS_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.unindex = db.prepare('DELETE FROM recalls_fts WHERE rowid = ?');
    this.count = db.prepare(
      'UPDATE sync_runs SET fetched = fetched + ?, added = added + ?, updated = updated + ?, unchanged = unchanged + ? WHERE id = ?',
    );
    // IMMEDIATE takes the write lock before reading, so two syncs never both decide a record is new.
    const tx = db.transaction((records: readonly ArchivedRecord[], runId: number) => this.apply(records, runId));
    this.write = (records, runId) => tx.immediate(records, runId);
  }

  /** One transaction: the page's records and the run's counts, both or neither. */
  page(records: readonly ArchivedRecord[], runId: number): UpsertCounts {
    return this.write(records, runId);
  }

  private apply(records: readonly ArchivedRecord[], runId: number): UpsertCounts {
    const counts: UpsertCounts = { added: 0, updated: 0, unchanged: 0 };
    // Read under the write lock (the transaction is IMMEDIATE): every page committed before has a smaller stamp.
    let stamp: number | undefined;
    const stampNow = () => {
      stamp ??= this.stamp.next();
      return stamp;
    };
    for (const record of records) {
      const raw = JSON.stringify(record);
      const old = this.find.get(record.id);
      if (!old) {
        this.insert.run({ id: record.id, run: runId, stamp: stampNow(), ...recordColumns(record, raw) });
        this.index.run(record.id, ...ftsValues(record));
        this.outbox?.queue({ recallId: record.id, version: 1, kind: 'new', raw }, runId);
        counts.added++;
        continue;
      }
      // Same bytes (most records of a sync): nothing to derive. Else an older version arriving late
      // (a concurrent sync that fetched before the change) is not stored either.
      if (old.raw === raw) {
        counts.unchanged++;
        continue;
      }
      const columns = recordColumns(record, raw);
      const older = columns.updated_us !== null && old.updated_us !== null && columns.updated_us < old.updated_us;
      if (older) {
        counts.unchanged++;
        continue;
      }
      this.keep.run(record.id, old.version, old.updated_at, old.version_run, runId, old.raw);
      this.update.run({ id: record.id, version: old.version + 1, run: runId, stamp: stampNow(), ...columns });
      this.unindex.run(record.id);
      this.index.run(record.id, ...ftsValues(record));
      // In this page's transaction: a new version and its cases' "recall updated" events commit together.
      this.cases.recallUpdated(record.id, old.version + 1, old.raw, record);
      this.outbox?.queue({ recallId: record.id, version: old.version + 1, kind: 'update', raw }, runId);
      counts.updated++;
    }
    this.count.run(records.length, counts.added, counts.updated, counts.unchanged, runId);
    return counts;
  }
}
