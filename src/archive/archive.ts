// The archive store: one SQLite file of every recall a sync has seen, its versions, and the runs that stored them.
import type Database from 'better-sqlite3';
import type { RecordFilter } from '../filters/record-filter.js';
import type { CaseCandidate, CaseQuery, CaseStep, CaseView } from './cases-model.js';
import { verifyCases, type CaseLogCheck } from './cases-verify.js';
import { CaseStore, type StepBy } from './cases.js';
import { versions, type StoredVersion } from './history.js';
import { storedInPeriod, type StoredInPeriod } from './period-recalls.js';
import { runsAround, type SyncRunRow } from './run-rows.js';
import { openDatabase, type OpenOptions } from './open.js';
import { beginRun, extent, finishRun, type ArchiveExtent, type RunCounts, type RunOutcome } from './runs.js';
import { listRecords, listRecordTexts, type ArchiveListing, type ArchiveQuery } from './select.js';
import type { StatsField } from './stats-fields.js';
import { stats, type StatsResult } from './stats.js';
import { Upserter, type ArchivedRecord, type UpsertCounts } from './upsert.js';

export class Archive {
  readonly file: string;
  private readonly db: Database.Database;
  private upserter: Upserter | undefined;
  private caseStore: CaseStore | undefined;

  private constructor(file: string, db: Database.Database) {
    this.file = file;
    this.db = db;
  }

  /** Opens (with `create`, creates) the archive and brings its schema forward. */
  static open(file: string, opts: OpenOptions): Archive {
    return new Archive(file, openDatabase(file, opts));
  }

  /** Starts a sync_runs row; the counts grow with each page stored under it. */
  beginRun(params: Record<string, unknown>, atMs: number): number {
    return beginRun(this.db, params, atMs);
  }

  /** Stores one page in one transaction and adds its counts to the run. */
  upsertPage(records: readonly ArchivedRecord[], runId: number): UpsertCounts {
    this.upserter ??= new Upserter(this.db);
    return this.upserter.page(records, runId);
  }

  finishRun(runId: number, outcome: RunOutcome, atMs: number, error?: string): RunCounts {
    return finishRun(this.db, runId, outcome, atMs, error);
  }

  extent(): ArchiveExtent {
    return extent(this.db);
  }

  /** Streams the matching records, one row in memory at a time. Nothing else may use the archive until it ends. */
  records(q: ArchiveListing): Generator<Record<string, unknown>> {
    return listRecords(this.db, q);
  }

  /** The same records as `records`, as stored: each one's JSON text (JSON.stringify's output), unparsed. */
  recordTexts(q: ArchiveListing): Generator<string> {
    return listRecordTexts(this.db, q);
  }

  /** Every stored version of one recall, oldest first; empty when the archive does not hold it. */
  versions(id: number): StoredVersion[] {
    return versions(this.db, id);
  }

  stats(q: ArchiveQuery, by: readonly StatsField[]): StatsResult {
    return stats(this.db, q, by);
  }

  /** The sync runs that started in the period or up to a day before it (whose window may reach into it). */
  async syncRuns(period: { fromMs: number; toMs: number }): Promise<SyncRunRow[]> {
    return runsAround(this.db, period);
  }

  /** The recalls first stored (new) or given a new version (updated) by the runs that started in the period. */
  async storedIn(period: { fromMs: number; toMs: number }, q: ArchiveQuery): Promise<StoredInPeriod> {
    return storedInPeriod(this.db, period, q);
  }

  private get store(): CaseStore {
    this.caseStore ??= new CaseStore(this.db);
    return this.caseStore;
  }

  /** Opens a case for each new (catalogue row, recall) pair, in one transaction; a pair with a case is left alone. */
  async openCases(candidates: readonly CaseCandidate[], by: StepBy): Promise<{ opened: number; existing: number }> {
    return this.store.open(candidates, by);
  }

  /** Cases with their timelines, oldest first; `filter` applies to each case's recall as archived. */
  async cases(q: CaseQuery, filter?: RecordFilter): Promise<CaseView[]> {
    return this.store.list(q, filter);
  }

  /** One case, and its recall as the archive holds it now. */
  async caseWithRecall(id: number): Promise<{ case: CaseView; recall: Record<string, unknown> | undefined }> {
    return this.store.get(id);
  }

  /** Resolves, parks (wait) or reopens a case: one more event on its timeline. */
  async stepCase(id: number, step: CaseStep, by: StepBy): Promise<CaseView> {
    return this.store.step(id, step, by);
  }

  /** Checks the case log's hash chain, and each case against its timeline. */
  async verifyCases(): Promise<CaseLogCheck> {
    return verifyCases(this.db);
  }

  /** Runs a read-only check of the whole file; 'ok' when sound. */
  integrityCheck(): string {
    return (this.db.pragma('integrity_check') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .join('; ');
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
