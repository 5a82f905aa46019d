// The one ArchiveStore: every feature written once (features/) over an engine's SQL client and dialect.
import type { RecordFilter } from '../../filters/record-filter.js';
import type { CaseLogCheck } from '../cases-chain.js';
import { CasesNotKeptError } from '../cases-errors.js';
import type { CaseCandidate, CaseQuery, CaseStep, CaseView, StepBy } from '../cases-model.js';
import * as cases from '../features/cases.js';
import { verifyCases } from '../features/cases-verify.js';
import { latestStamps, versionStamps, versions } from '../features/history.js';
import { archiveId, caseLevels, changeMeta, claimOrigin } from '../features/meta.js';
import * as outbox from '../features/outbox.js';
import { storedIn } from '../features/period.js';
import { beginRun, extent, finishRun, runsAround } from '../features/runs.js';
import { listRows } from '../features/selection.js';
import { pageRows, upsertPage } from '../features/upsert.js';
import type {
  OutboxActions,
  OutboxBacklog,
  OutboxClaim,
  OutboxItem,
  OutboxOutcome,
  OutboxRelease,
  OutboxRenewal,
} from '../outbox-model.js';
import type { SyncRunRow } from '../run-rows.js';
import type { StatsField } from '../stats-fields.js';
import type {
  ArchiveExtent,
  ArchiveListing,
  ArchiveOrigin,
  ArchiveQuery,
  ArchiveStore,
  ArchivedRecord,
  Period,
  RunCounts,
  RunOutcome,
  StatsResult,
  StoredInPeriod,
  StoredVersion,
  UpsertCounts,
} from '../store.js';
import type { Dialect, SqlClient } from './client.js';
import type { ArchiveEngine, Feature } from './engine.js';

export class SqlStore implements ArchiveStore {
  readonly engine: 'sqlite' | 'postgres';
  readonly name: string;
  private readonly d: Dialect;
  /** The actions each page queues in the outbox (setOutboxActions); none by default. */
  private outboxActions: OutboxActions | undefined;
  /** Settles when every call made so far has finished (see run). */
  private turns: Promise<unknown> = Promise.resolve();

  constructor(private readonly e: ArchiveEngine) {
    this.engine = e.engine;
    this.name = e.name;
    this.d = e.dialect;
  }

  /**
   * Runs `fn` on the connection, its failure named by the engine. Calls take turns, in the order they were made:
   * a caller may hand over the next page while the last one is still being stored, and transactions never interleave.
   */
  private run<T>(fn: (client: SqlClient) => Promise<T>): Promise<T> {
    const turn = this.turns.then(async () => {
      try {
        return await fn(await this.e.client());
      } catch (err) {
        throw this.e.failed(err);
      }
    });
    this.turns = turn.catch(() => {});
    return turn;
  }

  /** A listing's batches as one row at a time, each made by `each` as it is read: one promise per row. */
  private async *stream<T, U>(
    batches: (client: SqlClient) => AsyncIterable<T[]>,
    each: (row: T) => U,
  ): AsyncGenerator<U> {
    await this.turns;
    try {
      for await (const batch of batches(await this.e.client())) for (const row of batch) yield each(row);
    } catch (err) {
      throw this.e.failed(err);
    }
  }

  /** `fn`, or `otherwise` when the archive as opened has no tables for `feature` (an older one, read-only). */
  private kept<T>(feature: Feature, fn: (client: SqlClient) => Promise<T>, otherwise: () => T): Promise<T> {
    return this.run(async (client) => ((await this.e.keeps(feature)) ? fn(client) : otherwise()));
  }

  private withCases<T>(fn: (client: SqlClient) => Promise<T>): Promise<T> {
    return this.kept('cases', fn, () => {
      throw new CasesNotKeptError(this.name);
    });
  }

  claimOrigin(origin: ArchiveOrigin): Promise<void> {
    return this.run((c) => claimOrigin(c, this.d, this.name, origin));
  }

  archiveId(): Promise<string | undefined> {
    return this.run((c) => archiveId(c, this.d));
  }

  changeMeta(
    key: string,
    change: (value: string | undefined) => string | null | undefined,
    kind: 'write' | 'settle' = 'write',
  ): Promise<string | undefined> {
    return this.run((c) => changeMeta(c, this.d, key, change, kind));
  }

  beginRun(params: Record<string, unknown>, atMs: number): Promise<number> {
    return this.run((c) => beginRun(c, this.d, params, atMs));
  }

  upsertPage(records: readonly ArchivedRecord[], runId: number, now: () => number): Promise<UpsertCounts> {
    // Prepared now, before the page's turn: this JavaScript work overlaps the server storing the page before.
    const rows = pageRows(records);
    const page = { rows, prepared: this.e.recalls.prepare(rows) };
    const actions = this.outboxActions;
    return this.run((c) => upsertPage(c, this.d, this.e.recalls, page, runId, actions, now));
  }

  finishRun(
    runId: number,
    outcome: RunOutcome,
    atMs: number,
    error?: string,
    served?: readonly string[],
  ): Promise<RunCounts> {
    return this.run((c) => finishRun(c, this.d, runId, outcome, atMs, error, served));
  }

  extent(): Promise<ArchiveExtent> {
    return this.run((c) => extent(c, this.d));
  }

  records(q: ArchiveListing): AsyncIterable<Record<string, unknown>> {
    return this.stream(
      (c) => listRows(c, this.d, q),
      ([text, record]) => record ?? (JSON.parse(text) as Record<string, unknown>),
    );
  }

  recordTexts(q: ArchiveListing): AsyncIterable<string> {
    return this.stream(
      (c) => listRows(c, this.d, q),
      ([text]) => text,
    );
  }

  versions(id: number): Promise<StoredVersion[]> {
    return this.run((c) => versions(c, this.d, id));
  }

  versionStamps(ids: readonly number[]): Promise<Map<number, number | null>> {
    return this.run((c) => versionStamps(c, this.d, ids));
  }

  latestStamps(beforeUs: number, limit: number): Promise<[number, number][]> {
    return this.run((c) => latestStamps(c, this.d, beforeUs, limit));
  }

  stats(q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult> {
    return this.run((c) => this.e.stats(c, q, by));
  }

  syncRuns(period: Period): Promise<SyncRunRow[]> {
    return this.run((c) => runsAround(c, this.d, period));
  }

  storedIn(period: Period, q: ArchiveQuery): Promise<StoredInPeriod> {
    return this.run((c) => storedIn(c, this.d, period, q));
  }

  commitHorizon(): Promise<number | undefined> {
    return this.run(() => this.e.commitHorizon());
  }

  openCases(
    candidates: readonly CaseCandidate[],
    by: StepBy,
    levels?: readonly string[],
  ): Promise<{ opened: number; existing: number; ids: number[] }> {
    return this.withCases((c) => cases.openCases(c, this.d, candidates, by, levels));
  }

  caseLevels(): Promise<string[] | undefined> {
    return this.run((c) => caseLevels(c, this.d));
  }

  cases(q: CaseQuery, filter?: RecordFilter): Promise<CaseView[]> {
    return this.withCases((c) => cases.listCases(c, this.d, q, filter));
  }

  caseWithRecall(id: number): Promise<{ case: CaseView; recall: Record<string, unknown> | undefined }> {
    return this.withCases((c) => cases.caseWithRecall(c, this.d, id));
  }

  async stepCase(id: number, step: CaseStep, by: StepBy): Promise<CaseView> {
    return (await this.stepCases([id], step, by))[0] as CaseView;
  }

  stepCases(ids: readonly number[], step: CaseStep, by: StepBy): Promise<CaseView[]> {
    return this.withCases((c) => cases.stepCases(c, this.d, ids, step, by));
  }

  verifyCases(): Promise<CaseLogCheck> {
    return this.withCases((c) => verifyCases(c, this.d));
  }

  setOutboxActions(actions: OutboxActions): void {
    this.outboxActions = actions;
  }

  claimOutbox(claim: OutboxClaim): Promise<OutboxItem[]> {
    return this.run((c) => outbox.claimOutbox(c, this.d, claim));
  }

  renewOutbox(renewal: OutboxRenewal): Promise<number[]> {
    return this.run((c) => outbox.renewOutbox(c, this.d, renewal));
  }

  releaseOutbox(release: OutboxRelease): Promise<number[]> {
    return this.run((c) => outbox.releaseOutbox(c, this.d, release));
  }

  settleOutbox(id: number, outcome: OutboxOutcome, nowMs: number): Promise<void> {
    return this.run((c) => outbox.settleOutbox(c, this.d, id, outcome, nowMs));
  }

  // A read-only open of an archive from before the outbox owes nothing.
  outboxBacklog(): Promise<OutboxBacklog> {
    const none = { pending: 0, retrying: 0, failed: 0 };
    return this.kept(
      'outbox',
      (c) => outbox.outboxBacklog(c, this.d),
      () => none,
    );
  }

  outboxOldestPending(): Promise<string | undefined> {
    return this.kept(
      'outbox',
      (c) => outbox.outboxOldestPending(c, this.d),
      () => undefined,
    );
  }

  async close(): Promise<void> {
    await this.turns;
    await this.e.close();
  }
}
