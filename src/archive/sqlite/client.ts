// The SQL client over better-sqlite3: each statement prepared once per connection, transactions by BEGIN and COMMIT.
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { SqlClient, TransactionKind } from '../sql/client.js';
import { type Waiting, whenNotBusy } from './busy-wait.js';

const MAX_STATEMENTS = 500;
/**
 * Rows per batch of a listing: the first rows come at once (a --limit 20), later ones a batch at a time. Few, since a
 * batch's texts stay alive while its records are used, and what outlives young collections waits for a full one
 * (match --archive's batches, in run-match.ts, measured with this).
 */
const BATCH = 64;

const BEGIN: Record<TransactionKind, string> = {
  // IMMEDIATE takes the write lock before reading, so two syncs never both decide a record is new.
  write: 'BEGIN IMMEDIATE',
  settle: 'BEGIN IMMEDIATE',
  claim: 'BEGIN IMMEDIATE',
  read: 'BEGIN',
};

/**
 * The transactions open in this process, by file. better-sqlite3 waits for a lock synchronously (the busy
 * timeout), blocking the thread: a second connection to the same file in this process (a test, `cases` beside a
 * sync) must wait here instead, asynchronously, for the first to commit.
 */
const open = new Map<string, Promise<void>>();

/**
 * better-sqlite3 is synchronous: every call here has finished when its promise is made, so shared code that
 * awaits it runs its statements back to back; the store lets one call at a time use the connection.
 */
export class SqliteClient implements SqlClient {
  /** Statements by their SQL: a sync runs the same few per record for hours, prepared once. */
  private readonly statements = new Map<string, Database.Statement>();
  private depth = 0;

  /** The file's key in `open`; undefined in memory (nothing else can reach it). */
  private readonly file: string | undefined;

  constructor(
    readonly db: Database.Database,
    /** How a write waits for another process's writer: the run's clock and sleep, ended by its signal, for how long. */
    private readonly waiting: Waiting = {},
  ) {
    this.file = db.memory ? undefined : path.resolve(db.name);
  }

  /** Outside a transaction: first lets one that another connection of this process holds finish. */
  private async ready(): Promise<void> {
    if (this.depth > 0 || this.file === undefined) return;
    for (let held = open.get(this.file); held; held = open.get(this.file)) await held;
  }

  /** The prepared statement for `sql`, made on first use. */
  prepare(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (stmt === undefined) {
      // Bounded: statements that vary with a list's length (IN (?, ?, …)) must not pile up over a long watch.
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    await this.ready();
    return this.prepare(sql).all(...params) as T[];
  }

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    await this.ready();
    const stmt = this.prepare(sql);
    if (stmt.readonly) return stmt.get(...params) as T | undefined;
    // A write with RETURNING (INSERT … RETURNING id) is stepped to its end: get() stops at the first row and resets,
    // and an autocommit's COMMIT failing there (the disk full) is never reported, the row it returned never stored.
    return stmt.all(...params)[0] as T | undefined;
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    await this.ready();
    return this.prepare(sql).run(...params).changes;
  }

  async *batches<T>(sql: string, params: readonly unknown[] = []): AsyncIterable<T[]> {
    await this.ready();
    let batch: T[] = [];
    for (const row of this.prepare(sql).iterate(...params) as IterableIterator<T>) {
      batch.push(row);
      if (batch.length < BATCH) continue;
      yield batch;
      batch = [];
    }
    if (batch.length > 0) yield batch;
  }

  async transaction<T>(kind: TransactionKind, fn: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return fn();
    // Checked again right before taking it, with no await between: two waiters never both go ahead.
    for (let held = this.file && open.get(this.file); held; held = this.file && open.get(this.file)) await held;
    let release = () => {};
    if (this.file !== undefined) open.set(this.file, new Promise<void>((r) => (release = r)));
    this.depth++;
    try {
      // Another process's writer (a second sync) holds the write lock for a page: waited for without blocking.
      if (kind === 'read' || this.file === undefined) this.db.exec(BEGIN[kind]);
      else {
        const { wait, signal, timeoutMs } = this.waiting;
        const stop = kind === 'settle' ? undefined : signal;
        await whenNotBusy(this.db, () => this.db.exec(BEGIN[kind]), wait, stop, timeoutMs);
      }
      const result = await fn();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    } finally {
      this.depth--;
      if (this.file !== undefined) open.delete(this.file);
      release();
    }
  }
}
