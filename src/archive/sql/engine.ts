// What an engine gives the shared store: its client and dialect, how it names failures, and its genuinely own parts.
import type { StatsField } from '../stats-fields.js';
import type { ArchiveQuery, ArchivedRecord, StatsResult } from '../store.js';
import type { Dialect, SqlClient } from './client.js';

/** A recall as the archive holds it, read under the write lock to decide what a page changes. */
export interface StoredRecall {
  id: number;
  raw: string;
  version: number;
  updated_at: string | null;
  updated_us: number | null;
  version_run: number | null;
}

/** A record of the page, before any transaction: its JSON text. */
export interface PageRow {
  record: ArchivedRecord;
  raw: string;
}

/** A record the page stores: new (version 1, no `old`) or a new version of `old`. */
export interface RecallWrite {
  row: PageRow;
  /** The row's place in the page (for what the engine prepared for it). */
  index: number;
  version: number;
  old: StoredRecall | undefined;
}

/** How an engine stores a page's records: the hot path of a sync, each engine's fastest. */
export interface RecallWriter {
  /** Work that does not depend on the archive, done before the page's turn (overlapping the page before). */
  prepare(rows: readonly PageRow[]): unknown;
  /** Inside the page's write transaction: the rows, their search index and commit stamps (not their history). */
  write(client: SqlClient, prepared: unknown, writes: readonly RecallWrite[], runId: number): Promise<void>;
}

export type Feature = 'cases' | 'outbox';

export interface ArchiveEngine {
  readonly engine: 'sqlite' | 'postgres';
  /** The archive as shown to people: a file path, or the database URL without its password. */
  readonly name: string;
  readonly dialect: Dialect;
  /** The client; PostgreSQL connects again after a lost connection. */
  client(): Promise<SqlClient>;
  /** The error named for people (a damaged file, a lost server: the connection dropped), or as it is. */
  failed(err: unknown): unknown;
  /** Whether the archive as opened has a feature's tables: a read-only open of an older archive may not. */
  keeps(feature: Feature): Promise<boolean>;
  readonly recalls: RecallWriter;
  /** Counts by field: JSON access and grouping differ too much to share (json_each vs jsonb, grouping sets). */
  stats(client: SqlClient, q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult>;
  /** The commit horizon: a file's lock or the schema's advisory lock, tried without waiting (commit-stamp.ts). */
  commitHorizon(): Promise<number | undefined>;
  close(): Promise<void>;
}
