// The dialect layer's contract: the small async SQL client each engine provides, and its Dialect of differences.

/** A piece of SQL with its `?` parameters, in order. */
export interface Fragment {
  sql: string;
  params: unknown[];
}

/**
 * How a transaction holds the archive. `write`: the archive's write lock first (SQLite's BEGIN IMMEDIATE,
 * PostgreSQL's advisory lock), so two writers never both decide from the same state. `claim`: rows taken by
 * their own locks (an outbox claim on PostgreSQL, SKIP LOCKED), never waiting behind a page. `read`: one snapshot.
 * `settle`: a write that records what already happened outside the archive (a digest delivered): as `write`, but a
 * stop (Ctrl-C, SIGTERM) does not cut its wait for the lock, which the lock timeout still bounds.
 */
export type TransactionKind = 'write' | 'settle' | 'claim' | 'read';

/**
 * What shared code runs SQL through. SQL is written with `?` placeholders (the PostgreSQL client numbers them)
 * and tables named through `Dialect.t`. Rows come back with bigints as numbers on both engines.
 */
export interface SqlClient {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** A statement without rows; resolves to the rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * The rows a batch at a time, memory flat however many (a cursor on PostgreSQL): a listing, nothing else
   * meanwhile. Batches, not rows: a promise per row would cost more than SQLite takes to read the row.
   */
  batches<T>(sql: string, params?: readonly unknown[]): AsyncIterable<T[]>;
  /** `fn` in one transaction; inside one already, `fn` joins it (a page's hooks join the page's transaction). */
  transaction<T>(kind: TransactionKind, fn: () => Promise<T>): Promise<T>;
}

/** The engine differences shared code asks about: data, or a small hook that returns SQL. */
export interface Dialect {
  readonly engine: 'sqlite' | 'postgres';
  /** A table as SQL names it: `recalls`, or `"schema".recalls`. */
  t(table: string): string;
  /** The literals for a condition that always or never holds. */
  readonly true: string;
  readonly false: string;
  /** `column` is one of `values` (IN (?, ?) on SQLite, = ANY(?::type[]) on PostgreSQL); never empty. */
  anyOf(column: string, values: readonly unknown[], type: 'text' | 'bigint'): Fragment;
  /** `column`'s list (JSON text on SQLite, text[] on PostgreSQL) holds one of `values`. */
  listHasAny(column: string, values: readonly string[]): Fragment;
  /** `column` holds `value` as a substring. */
  contains(column: string, value: string): Fragment;
  /**
   * `--search` as a condition on `recalls r`; undefined when it has no word (which matches nothing). `inOrder`: the
   * hits are wanted in the listing's order up to a limit. SQLite's planner would otherwise look every hit up by its id
   * and sort them all (some 20,000 rows for 20 at a million recalls); written so it cannot, it walks the sort
   * column's index and stops at the limit. PostgreSQL's planner weighs the two by its statistics.
   */
  search(text: string, inOrder?: boolean): Fragment | undefined;
  /** ORDER BY direction for a nullable column, nulls first ascending and last descending on both engines. */
  order(dir: 'asc' | 'desc'): string;
  /** Ends a claim's SELECT: rows another claim holds are locked and skipped (nothing on SQLite: one writer). */
  readonly claimLock: string;
  /** A lease's end `ms` from now, on the archive's clock: this host's on SQLite, the server's on PostgreSQL. */
  later(nowMs: number, ms: number): Fragment;
  /** Now on that clock, as lease_until holds it. */
  now(nowMs: number): Fragment;
  /**
   * `value` (strings inside objects and arrays too) as a text column holds it: a lone surrogate as U+FFFD on both
   * engines (it has no UTF-8 form), and on PostgreSQL, whose text refuses NUL, a NUL too. Applied before a value is
   * hashed, so the chain holds the stored text.
   */
  texts<T>(value: T): T;
  /** Now as done_at holds it (ISO text on SQLite, timestamptz on PostgreSQL). */
  stamp(nowMs: number): Fragment;
}
