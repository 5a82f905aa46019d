// The SQLite engine: one file of every recall a sync has seen, its versions, and the runs that stored them.
import type Database from 'better-sqlite3';
import { settleOrigin } from '../origin.js';
import type { CaseLogCheck } from '../cases-chain.js';
import type { CaseCandidate, CaseQuery, CaseStep, CaseView, StepBy } from '../cases-model.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { SyncRunRow } from '../run-rows.js';
import type { StatsField } from '../stats-fields.js';
import type {
  ArchiveExtent,
  ArchiveListing,
  ArchiveOrigin,
  ArchiveQuery,
  ArchiveStore,
  ArchivedRecord,
  OpenOptions,
  Period,
  RunCounts,
  RunOutcome,
  StatsResult,
  StoredInPeriod,
  StoredVersion,
  UpsertCounts,
} from '../store.js';
import { CaseStore } from './cases.js';
import { commitHorizon } from './commit-stamp.js';
import { verifyCases } from './cases-verify.js';
import { storedInPeriod } from './period-recalls.js';
import { versions } from './history.js';
import { corruptionOf, leaveWal, openDatabase } from './open.js';
import { beginRun, extent, finishRun, runsAround } from './runs.js';
import { listRecords, listRecordTexts } from './select.js';
import { stats } from './stats.js';
import { Upserter } from './upsert.js';
import { claimOutbox, OutboxWriter, outboxBacklog, outboxOldestPending, renewOutbox, settleOutbox } from './outbox.js';
import type {
  OutboxActions,
  OutboxBacklog,
  OutboxClaim,
  OutboxItem,
  OutboxOutcome,
  OutboxRenewal,
} from '../outbox-model.js';

export class SqliteStore implements ArchiveStore {
  readonly engine = 'sqlite' as const;
  readonly name: string;
  private readonly db: Database.Database;
  private readonly readOnly: boolean;
  private upserter: Upserter | undefined;
  private outboxActions: OutboxActions | undefined;
  private caseStore: CaseStore | undefined;

  private constructor(file: string, db: Database.Database, readOnly: boolean) {
    this.name = file;
    this.db = db;
    this.readOnly = readOnly;
  }

  /** Opens (with `create`, creates) the archive and brings its schema forward; read-only opens write nothing. */
  static async open(file: string, opts: OpenOptions): Promise<SqliteStore> {
    return new SqliteStore(file, openDatabase(file, opts), opts.readOnly ?? false);
  }

  /** Runs `fn`, naming the file when SQLite finds it damaged. */
  private run<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(corruptionOf(this.name, err));
    }
  }

  private async *stream<T>(rows: () => Generator<T>): AsyncGenerator<T> {
    try {
      yield* rows();
    } catch (err) {
      throw corruptionOf(this.name, err);
    }
  }

  claimOrigin(origin: ArchiveOrigin): Promise<void> {
    return this.run(() => {
      this.db
        .transaction(() => {
          const recorded = this.db.prepare("SELECT value FROM archive_meta WHERE key = 'origin'").pluck().get() as
            | string
            | undefined;
          const has = this.db.prepare('SELECT EXISTS (SELECT 1 FROM recalls)').pluck().get() === 1;
          const holds = settleOrigin(this.name, recorded, has, origin);
          if (recorded === undefined)
            this.db.prepare("INSERT INTO archive_meta (key, value) VALUES ('origin', ?)").run(holds);
        })
        .immediate();
    });
  }

  beginRun(params: Record<string, unknown>, atMs: number): Promise<number> {
    return this.run(() => beginRun(this.db, params, atMs));
  }

  upsertPage(records: readonly ArchivedRecord[], runId: number): Promise<UpsertCounts> {
    return this.run(() => {
      if (!this.upserter) {
        this.upserter = new Upserter(this.db);
        if (this.outboxActions) {
          this.upserter.outbox = new OutboxWriter(this.db);
          this.upserter.outbox.actions = this.outboxActions;
        }
      }
      return this.upserter.page(records, runId);
    });
  }

  setOutboxActions(actions: OutboxActions): void {
    this.outboxActions = actions;
    if (this.upserter) {
      this.upserter.outbox ??= new OutboxWriter(this.db);
      this.upserter.outbox.actions = actions;
    }
  }

  claimOutbox(claim: OutboxClaim): Promise<OutboxItem[]> {
    return this.run(() => claimOutbox(this.db, claim));
  }

  renewOutbox(renewal: OutboxRenewal): Promise<number[]> {
    return this.run(() => renewOutbox(this.db, renewal));
  }

  settleOutbox(id: number, outcome: OutboxOutcome, nowMs: number): Promise<void> {
    return this.run(() => settleOutbox(this.db, id, outcome, nowMs));
  }

  outboxBacklog(): Promise<OutboxBacklog> {
    return this.run(() => outboxBacklog(this.db));
  }

  outboxOldestPending(): Promise<string | undefined> {
    return this.run(() => outboxOldestPending(this.db));
  }

  finishRun(
    runId: number,
    outcome: RunOutcome,
    atMs: number,
    error?: string,
    served?: readonly string[],
  ): Promise<RunCounts> {
    return this.run(() => finishRun(this.db, runId, outcome, atMs, error, served));
  }

  extent(): Promise<ArchiveExtent> {
    return this.run(() => extent(this.db));
  }

  records(q: ArchiveListing): AsyncIterable<Record<string, unknown>> {
    return this.stream(() => listRecords(this.db, q));
  }

  recordTexts(q: ArchiveListing): AsyncIterable<string> {
    return this.stream(() => listRecordTexts(this.db, q));
  }

  versions(id: number): Promise<StoredVersion[]> {
    return this.run(() => versions(this.db, id));
  }

  stats(q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult> {
    return this.run(() => stats(this.db, q, by));
  }

  syncRuns(period: Period): Promise<SyncRunRow[]> {
    return this.run(() => runsAround(this.db, period));
  }

  storedIn(period: Period, q: ArchiveQuery): Promise<StoredInPeriod> {
    return this.run(() => storedInPeriod(this.db, period, q));
  }

  commitHorizon(): Promise<number | undefined> {
    return this.run(() => {
      const us = commitHorizon(this.db, this.name, Date.now);
      return us === undefined ? undefined : us / 1000;
    });
  }

  private get store(): CaseStore {
    this.caseStore ??= new CaseStore(this.db);
    return this.caseStore;
  }

  openCases(
    candidates: readonly CaseCandidate[],
    by: StepBy,
    levels?: readonly string[],
  ): Promise<{ opened: number; existing: number }> {
    return this.run(() => this.store.open(candidates, by, levels));
  }

  caseLevels(): Promise<string[] | undefined> {
    return this.run(() => {
      const value = this.db.prepare("SELECT value FROM archive_meta WHERE key = 'case_levels'").pluck().get();
      return typeof value === 'string' ? value.split(',').filter((l) => l !== '') : undefined;
    });
  }

  cases(q: CaseQuery, filter?: RecordFilter): Promise<CaseView[]> {
    return this.run(() => this.store.list(q, filter));
  }

  caseWithRecall(id: number): Promise<{ case: CaseView; recall: Record<string, unknown> | undefined }> {
    return this.run(() => this.store.get(id));
  }

  stepCase(id: number, step: CaseStep, by: StepBy): Promise<CaseView> {
    return this.run(() => this.store.step(id, step, by));
  }

  stepCases(ids: readonly number[], step: CaseStep, by: StepBy): Promise<CaseView[]> {
    return this.run(() => this.store.stepMany(ids, step, by));
  }

  verifyCases(): Promise<CaseLogCheck> {
    return this.run(() => verifyCases(this.db));
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    if (!this.readOnly && !this.db.memory) leaveWal(this.db);
    this.db.close();
  }
}
