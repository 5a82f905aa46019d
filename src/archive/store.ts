// The archive interface the jobs use (implemented once, by sql/store.ts over either engine), and the types it speaks.
import type { SortField, SortOrder } from '../api/constants.js';
import type { RecordFilter } from '../filters/record-filter.js';
import type { CaseLogCheck } from './cases-chain.js';
import type { CaseCandidate, CaseQuery, CaseStep, CaseView, StepBy } from './cases-model.js';
import type {
  OutboxActions,
  OutboxBacklog,
  OutboxClaim,
  OutboxItem,
  OutboxOutcome,
  OutboxRelease,
  OutboxRenewal,
} from './outbox-model.js';
import type { SyncRunRow } from './run-rows.js';
import type { StatsField } from './stats-fields.js';

/** Which recalls: every condition is optional, all of them must hold. */
export interface ArchiveQuery {
  /** published_at at or after this instant, µs since the epoch. */
  sinceUs?: number;
  /** published_at before this instant, µs since the epoch. */
  untilUs?: number;
  sources?: readonly string[];
  /** Words that must all appear in the full-text fields (see docs/archive.md). */
  search?: string;
  filter?: RecordFilter;
}

/** A query with an order and a limit, for listing. */
export interface ArchiveListing extends ArchiveQuery {
  sortBy?: SortField;
  order?: SortOrder;
  limit?: number;
}

/** A record as the feed sends it: an object with an integer id. */
export type ArchivedRecord = Record<string, unknown> & { id: number };

export interface UpsertCounts {
  added: number;
  updated: number;
  unchanged: number;
}

export type RunOutcome = 'ok' | 'failed' | 'interrupted';

export interface RunCounts {
  fetched: number;
  added: number;
  updated: number;
  unchanged: number;
}

export interface ArchiveExtent {
  /** Recalls in the archive. */
  total: number;
  /** The earliest and latest published_at, µs since the epoch; undefined when empty. */
  firstPublishedUs: number | undefined;
  lastPublishedUs: number | undefined;
}

export interface StoredVersion {
  version: number;
  /** The record exactly as the API sent it. */
  raw: string;
  /** When the sync that stored this version started (ISO 8601), if known. */
  storedAt: string | undefined;
  current: boolean;
}

export interface ValueCount {
  /**
   * A record field's group as its filter reads it, labelled (stats-groups.ts), null for the recalls no value selects;
   * the source as stored; a bucket's UTC start for day and hour.
   */
  value: unknown;
  count: number;
}

export interface StatsResult {
  /** Recalls selected. */
  total: number;
  /** Per requested field, sorted by count (descending), then value. */
  counts: Partial<Record<StatsField, ValueCount[]>>;
}

/** Where an archive's recalls come from: the real API, or the built-in sandbox's invented ones (never mixed). */
export type ArchiveOrigin = 'api' | 'sandbox';

export interface OpenOptions {
  /** Create the archive when missing (sync). Otherwise a missing archive is ArchiveMissingError. */
  create: boolean;
  /**
   * With `create`: make its folder too when missing. Only the default location's: a folder that --db names and that
   * does not exist is most likely a typo, and a new, empty archive there would be synced to unnoticed.
   */
  createFolder?: boolean;
  /** Never write (query, stats, show, match --archive): works on a read-only file, mount or role. */
  readOnly?: boolean;
  /** How long a writer waits for another's lock (default 30 s): PostgreSQL's write lock, SQLite's busy timeout. */
  lockWaitMs?: number;
  /**
   * Aborting it (the run interrupted) ends a wait at once, and the open or the write throws the signal's reason:
   * PostgreSQL's for the write lock (cancelled on the server), SQLite's for the file while a sync switches it to WAL.
   */
  signal?: AbortSignal;
  /**
   * SQLite: the clock and the sleep a writer waits with while other connections keep it from switching the file to
   * WAL (default the real ones): the run's, so that a test's fake clock runs the 30 s at once.
   */
  wait?: { now: () => number; sleep: (ms: number, signal?: AbortSignal) => Promise<void> };
  /**
   * SQLite: the clock commit stamps are read from (default the real one): the run's, so that a world pinned by
   * --sandbox-now stores what it syncs in its own time, where its digest looks. PostgreSQL reads its server's clock.
   */
  now?: () => number;
}

/**
 * One archive, whichever engine holds it. Every method is async; listings are async iterables that keep
 * one batch in memory. Nothing else may use the archive while a listing is being read.
 */
export interface ArchiveStore {
  /** Which engine: for messages and tests only; command code never branches on it. */
  readonly engine: 'sqlite' | 'postgres';
  /** The archive as shown to people: a file path, or the database URL without its password. */
  readonly name: string;
  /**
   * Records (once) where the archive's recalls come from; refuses with ArchiveOriginError when the
   * archive already holds recalls of the other origin.
   */
  claimOrigin(origin: ArchiveOrigin): Promise<void>;
  /** The id a sync recorded in the archive (a copy shares it, another archive does not); undefined before one did. */
  archiveId(): Promise<string | undefined>;
  /**
   * One `archive_meta` value read and replaced in one transaction under the write lock (a compare-and-set): `change`
   * gets it (undefined when none) and gives the new one, null to remove it, undefined to leave it; resolves to the
   * value then held. `digest --since last` keeps where each chain of digests ended this way. `settle`: it records
   * what already happened (a digest delivered), so a stop does not cut its wait for the write lock.
   */
  changeMeta(
    key: string,
    change: (value: string | undefined) => string | null | undefined,
    kind?: 'write' | 'settle',
  ): Promise<string | undefined>;
  /** Starts a sync_runs row; the counts grow with each page stored under it. */
  beginRun(params: Record<string, unknown>, atMs: number): Promise<number>;
  /**
   * Stores one page in one transaction and adds its counts to the run. `now`: the run's clock (a pinned world's under
   * --sandbox-now), which the cases' events the page writes (a reopened case, a note) are stamped with.
   */
  upsertPage(records: readonly ArchivedRecord[], runId: number, now: () => number): Promise<UpsertCounts>;
  /** Ends the run; `served`: the sources the API's answers said they applied (`data_sources.filtered`), when known. */
  finishRun(
    runId: number,
    outcome: RunOutcome,
    atMs: number,
    error?: string,
    served?: readonly string[],
  ): Promise<RunCounts>;
  extent(): Promise<ArchiveExtent>;
  /** The matching records in order (ties broken by id in the same direction), parsed. */
  records(q: ArchiveListing): AsyncIterable<Record<string, unknown>>;
  /** The same records as stored: each one's JSON text (JSON.stringify's output), unparsed. */
  recordTexts(q: ArchiveListing): AsyncIterable<string>;
  /** Every stored version of one recall, oldest first; empty when the archive does not hold it. */
  versions(id: number): Promise<StoredVersion[]>;
  /**
   * The version stamps (µs: when each one's current version committed; null before the archive had stamps) of those
   * of these recalls the archive holds.
   */
  versionStamps(ids: readonly number[]): Promise<Map<number, number | null>>;
  /** The `limit` latest versions committed before `beforeUs` (µs), newest first: [id, version stamp]. */
  latestStamps(beforeUs: number, limit: number): Promise<[number, number][]>;
  stats(q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult>;

  /** The sync runs that started in the period or up to a day before it (whose window may reach into it). */
  syncRuns(period: Period): Promise<SyncRunRow[]>;
  /**
   * The recalls first stored (new) or given a new version (updated) in the period, by commit stamp: the archive's
   * clock when the page that stored them held the write lock.
   */
  storedIn(period: Period, q: ArchiveQuery): Promise<StoredInPeriod>;
  /**
   * The commit stamp (ms since the epoch) below which every write has committed: read under the archive's write
   * lock, taken briefly without waiting; undefined while a writer holds it. ArchiveTooOldError before the stamps.
   */
  commitHorizon(): Promise<number | undefined>;

  /**
   * Opens a case for each new (catalogue row, recall) pair, in one transaction; a pair with a case is left alone.
   * `levels`, when given, are recorded in the same transaction as the levels cases are opened at (`match
   * --open-cases --level`): the report tells pairs below them (not opened by choice) from matches without a case.
   * `ids`: each candidate's case, opened now or before, in the candidates' order.
   */
  openCases(
    candidates: readonly CaseCandidate[],
    by: StepBy,
    levels?: readonly string[],
  ): Promise<{ opened: number; existing: number; ids: number[] }>;
  /** The levels the last `match --open-cases` opened cases at; undefined when none was recorded. */
  caseLevels(): Promise<string[] | undefined>;
  /** Cases with their timelines, oldest first; `filter` applies to each case's recall as archived. */
  cases(q: CaseQuery, filter?: RecordFilter): Promise<CaseView[]>;
  /** One case, and its recall as the archive holds it now. */
  caseWithRecall(id: number): Promise<{ case: CaseView; recall: Record<string, unknown> | undefined }>;
  /** Resolves, parks (wait) or reopens a case: one more event on its timeline. */
  stepCase(id: number, step: CaseStep, by: StepBy): Promise<CaseView>;
  /** The same step on several cases in one transaction, an event each; an unknown id or a refused step changes nothing. */
  stepCases(ids: readonly number[], step: CaseStep, by: StepBy): Promise<CaseView[]>;
  /** Checks the case log's hash chain, and each case against its timeline. */
  verifyCases(): Promise<CaseLogCheck>;

  /**
   * From now on, each page stored also queues these actions (in the outbox, in the page's transaction) for the
   * recalls it stores as new and the new versions it stores.
   */
  setOutboxActions(actions: OutboxActions): void;
  /** Claims up to `limit` rows owed (unclaimed, or whose lease ended), oldest first; each claim counts an attempt. */
  claimOutbox(claim: OutboxClaim): Promise<OutboxItem[]>;
  /**
   * Extends the lease of claimed rows still owed and still this host's (no other host claimed them after a lease
   * ended); gives the ids it renewed: a row missing is another host's now, or done.
   */
  renewOutbox(renewal: OutboxRenewal): Promise<number[]>;
  /**
   * Gives back rows this host claimed and did not try (a sync stopped in order): unleased, their claim's attempt
   * uncounted, so that the next sync or another host takes them at once; gives the ids released.
   */
  releaseOutbox(release: OutboxRelease): Promise<number[]>;
  /** Records how an attempt ended: done, retried after `retryInMs`, or given up. */
  settleOutbox(id: number, outcome: OutboxOutcome, nowMs: number): Promise<void>;
  /** What the outbox still owes, and what it gave up: for `doctor` and the metrics. */
  outboxBacklog(): Promise<OutboxBacklog>;
  /** When the sync that queued the oldest row still owed started (ISO 8601); undefined when nothing is owed. */
  outboxOldestPending(): Promise<string | undefined>;

  close(): Promise<void>;
}

/** A stretch of time, ms since the epoch, [fromMs, toMs). */
export interface Period {
  fromMs: number;
  toMs: number;
}

/**
 * The exclusive end of a period that runs up to now with now included: 1 ms after it, since a write on a pinned clock
 * (RECALL_FEED_SANDBOX_NOW) is stamped at exactly now and belongs to the period (report, digest, the MCP digest).
 */
export function endAfterNow(nowMs: number): number {
  return nowMs + 1;
}

export interface StoredInPeriod {
  /** First stored in the period. */
  new: Record<string, unknown>[];
  /** Stored earlier, given a new version in the period. */
  updated: Record<string, unknown>[];
}
