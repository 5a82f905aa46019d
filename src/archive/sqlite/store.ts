// The SQLite engine: one file of every recall a sync has seen; what the shared store (sql/store.ts) cannot share.
import type Database from 'better-sqlite3';
import { SqlStore } from '../sql/store.js';
import type { ArchiveEngine, Feature } from '../sql/engine.js';
import type { StatsField } from '../stats-fields.js';
import type { ArchiveQuery, ArchiveStore, OpenOptions, StatsResult } from '../store.js';
import { SqliteClient } from './client.js';
import type { Waiting } from './busy-wait.js';
import { commitHorizon } from './commit-stamp.js';
import { sqliteDialect } from './dialect.js';
import { archiveErrorOf, leaveWal, openDatabase, writerWaiting } from './open.js';
import { SqliteRecalls } from './recalls.js';
import { stats } from './stats.js';

/** The tables each feature added: a file of an earlier version opened read-only may lack them. */
const FEATURE_TABLES: Record<Feature, string> = { cases: 'case_events', outbox: 'outbox' };

class SqliteEngine implements ArchiveEngine {
  readonly engine = 'sqlite' as const;
  readonly dialect = sqliteDialect;
  private readonly sql: SqliteClient;
  private writer: SqliteRecalls | undefined;

  constructor(
    readonly name: string,
    private readonly db: Database.Database,
    private readonly readOnly: boolean,
    private readonly now: () => number = Date.now,
    private readonly waiting: Waiting = {},
  ) {
    this.sql = new SqliteClient(db, waiting);
  }

  client(): Promise<SqliteClient> {
    return Promise.resolve(this.sql);
  }

  /** A damaged file, or one busy past the wait, named as such. */
  failed(err: unknown): unknown {
    return archiveErrorOf(this.name, err, this.waiting.timeoutMs);
  }

  async keeps(feature: Feature): Promise<boolean> {
    const sql = "SELECT 1 AS one FROM sqlite_schema WHERE type = 'table' AND name = ?";
    return (await this.sql.get(sql, [FEATURE_TABLES[feature]])) !== undefined;
  }

  /** Its statements prepared on the first page (a read-only open never prepares an INSERT). */
  get recalls(): SqliteRecalls {
    this.writer ??= new SqliteRecalls(this.db, this.now);
    return this.writer;
  }

  stats(_client: unknown, q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult> {
    return Promise.resolve(stats(this.db, q, by));
  }

  commitHorizon(): Promise<number | undefined> {
    const us = commitHorizon(this.db, this.name, this.now);
    return Promise.resolve(us === undefined ? undefined : us / 1000);
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    if (!this.readOnly && !this.db.memory) leaveWal(this.db);
    this.db.close();
  }
}

export const SqliteStore = {
  /** Opens (with `create`, creates) the archive and brings its schema forward; read-only opens write nothing. */
  async open(file: string, opts: OpenOptions): Promise<ArchiveStore> {
    const db = await openDatabase(file, opts);
    return new SqlStore(new SqliteEngine(file, db, opts.readOnly ?? false, opts.now, writerWaiting(opts)));
  },
};
