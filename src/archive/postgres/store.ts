// The PostgreSQL engine: the archive's tables in one schema of a shared database, for many writers and readers.
import type pg from 'pg';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { CaseLogCheck } from '../cases-chain.js';
import { CasesNotKeptError } from '../cases-errors.js';
import type { CaseCandidate, CaseQuery, CaseStep, CaseView, StepBy } from '../cases-model.js';
import { settleOrigin } from '../origin.js';
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
import { caseWithRecall, listCases, openCases, stepCase, stepCases } from './cases.js';
import { verifyCases } from './cases-verify.js';
import { commitHorizon } from './commit-stamp.js';
import { cancelBackend, connect, databaseError, type PgTarget } from './connect.js';
import { DEFAULT_LOCK_WAIT_MS, prepareSchema } from './migrate.js';
import { pgTexts } from './pg-text.js';
import { claimOutbox, outboxBacklog, outboxOldestPending, renewOutbox, settleOutbox } from './outbox.js';
import type {
  OutboxActions,
  OutboxBacklog,
  OutboxClaim,
  OutboxItem,
  OutboxOutcome,
  OutboxRenewal,
} from '../outbox-model.js';
import { runsAround, storedInPeriod } from './period.js';
import { beginRun, extent, finishRun, versions } from './runs.js';
import { CASES_VERSION, OUTBOX_VERSION, quoted } from './schema.js';
import { listRecords, listRecordTexts } from './select.js';
import { stats } from './stats.js';
import { inWriteTransaction, setLockWait } from './transactions.js';
import { prepareRows, upsertPage } from './upsert.js';

export class PostgresStore implements ArchiveStore {
  readonly engine = 'postgres' as const;
  readonly name: string;
  private readonly s: string;

  /** Undefined after the connection was lost: the next call connects again (a `sync --watch` outlives a restart). */
  private client: pg.Client | undefined;

  /** The actions each page queues in the outbox (setOutboxActions); none by default. */
  private outboxActions: OutboxActions | undefined;

  /** Settles when every call made so far has finished (see run). */
  private turns: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly target: PgTarget,
    client: pg.Client,
    private readonly opts: OpenOptions,
    /** The schema's version as opened (prepareSchema): only a read-only open may find an older one. */
    private readonly version: number,
  ) {
    this.name = target.name;
    this.s = quoted(target.schema);
    this.client = client;
  }

  static async open(target: PgTarget, opts: OpenOptions): Promise<PostgresStore> {
    const client = await connect(target);
    let version: number;
    try {
      version = await prepareSchema(client, target, opts);
      await PostgresStore.session(client, target, opts);
    } catch (err) {
      await client.end().catch(() => {});
      throw databaseError(target, err) ?? err;
    }
    return new PostgresStore(target, client, opts, version);
  }

  /** A read-only command cannot write even by mistake; a writer waits for the write lock within bounds. */
  private static async session(client: pg.Client, target: PgTarget, opts: OpenOptions): Promise<void> {
    if (opts.readOnly) await client.query('SET default_transaction_read_only = on');
    setLockWait(client, {
      ms: opts.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
      signal: opts.signal,
      // processID: the server's pid for this connection, which pg keeps but does not declare.
      cancel: () => cancelBackend(target, (client as unknown as { processID: number }).processID),
      where: `database ${target.database} on ${target.host}`,
      name: target.name,
    });
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = await connect(this.target);
    await PostgresStore.session(client, this.target, this.opts);
    this.client = client;
    return client;
  }

  /** The error named with host and database; a lost or unreachable connection is dropped, to be made again. */
  private failed(err: unknown): unknown {
    const named = databaseError(this.target, err);
    if (named && (named.problem === 'lost' || named.problem === 'down')) {
      this.client?.end().catch(() => {});
      this.client = undefined;
    }
    return named ?? err;
  }

  /**
   * Runs `fn` on the connection, naming a lost connection, a refused permission or an unreachable server.
   * Calls take turns on the one connection, in the order they were made: a caller may hand over the next
   * page while the last one is still being stored, and their transactions never interleave.
   */
  private run<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const turn = this.turns.then(async () => {
      try {
        return await fn(await this.connected());
      } catch (err) {
        throw this.failed(err);
      }
    });
    this.turns = turn.catch(() => {});
    return turn;
  }

  private async *stream<T>(rows: (client: pg.Client) => AsyncGenerator<T>): AsyncGenerator<T> {
    await this.turns;
    try {
      yield* rows(await this.connected());
    } catch (err) {
      throw this.failed(err);
    }
  }

  claimOrigin(origin: ArchiveOrigin): Promise<void> {
    return this.run((client) =>
      inWriteTransaction(client, this.target.schema, async () => {
        const { rows } = await client.query<{ recorded: string | null; has: boolean }>(
          `SELECT (SELECT value FROM ${this.s}.archive_meta WHERE key = 'origin') AS recorded,
                  EXISTS (SELECT 1 FROM ${this.s}.recalls) AS has`,
        );
        const row = rows[0] as { recorded: string | null; has: boolean };
        const holds = settleOrigin(this.name, row.recorded ?? undefined, row.has, origin);
        if (row.recorded === null)
          await client.query(`INSERT INTO ${this.s}.archive_meta (key, value) VALUES ('origin', $1)`, [holds]);
      }),
    );
  }

  beginRun(params: Record<string, unknown>, atMs: number): Promise<number> {
    return this.run((client) => beginRun(client, this.s, params, atMs));
  }

  upsertPage(records: readonly ArchivedRecord[], runId: number): Promise<UpsertCounts> {
    // Prepared now, before the page's turn: this JavaScript work overlaps the server storing the page before.
    const rows = prepareRows(records);
    const outbox = this.outboxActions;
    return this.run((client) => upsertPage(client, this.s, this.target.schema, rows, runId, outbox));
  }

  setOutboxActions(actions: OutboxActions): void {
    this.outboxActions = actions;
  }

  claimOutbox(claim: OutboxClaim): Promise<OutboxItem[]> {
    return this.run((client) => claimOutbox(client, this.s, claim));
  }

  renewOutbox(renewal: OutboxRenewal): Promise<number[]> {
    return this.run((client) => renewOutbox(client, this.s, renewal));
  }

  settleOutbox(id: number, outcome: OutboxOutcome, _nowMs: number): Promise<void> {
    return this.run((client) => settleOutbox(client, this.s, id, outcome));
  }

  // A read-only open of a schema from before the outbox owes nothing: known from the open, never asked again.
  outboxBacklog(): Promise<OutboxBacklog> {
    if (this.version < OUTBOX_VERSION) return Promise.resolve({ pending: 0, retrying: 0, failed: 0 });
    return this.run((client) => outboxBacklog(client, this.s));
  }

  outboxOldestPending(): Promise<string | undefined> {
    if (this.version < OUTBOX_VERSION) return Promise.resolve(undefined);
    return this.run((client) => outboxOldestPending(client, this.s));
  }

  finishRun(
    runId: number,
    outcome: RunOutcome,
    atMs: number,
    error?: string,
    served?: readonly string[],
  ): Promise<RunCounts> {
    return this.run((client) => finishRun(client, this.s, runId, outcome, atMs, error, served));
  }

  extent(): Promise<ArchiveExtent> {
    return this.run((client) => extent(client, this.s));
  }

  records(q: ArchiveListing): AsyncIterable<Record<string, unknown>> {
    return this.stream((client) => listRecords(client, this.s, q));
  }

  recordTexts(q: ArchiveListing): AsyncIterable<string> {
    return this.stream((client) => listRecordTexts(client, this.s, q));
  }

  versions(id: number): Promise<StoredVersion[]> {
    return this.run((client) => versions(client, this.s, id));
  }

  stats(q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult> {
    return this.run((client) => stats(client, this.s, q, by, this.version));
  }

  syncRuns(period: Period): Promise<SyncRunRow[]> {
    return this.run((client) => runsAround(client, this.s, period));
  }

  storedIn(period: Period, q: ArchiveQuery): Promise<StoredInPeriod> {
    return this.run((client) => storedInPeriod(client, this.s, period, q));
  }

  commitHorizon(): Promise<number | undefined> {
    return this.run((client) => commitHorizon(client, this.s, this.target, this.version));
  }

  openCases(
    candidates: readonly CaseCandidate[],
    by: StepBy,
    levels?: readonly string[],
  ): Promise<{ opened: number; existing: number }> {
    // A catalogue's or a recall's NUL never reaches a text column (pg-text.ts).
    const clean = pgTexts(candidates);
    return this.run((client) => openCases(client, this.s, this.target.schema, clean, by, levels));
  }

  caseLevels(): Promise<string[] | undefined> {
    return this.run(async (client) => {
      const { rows } = await client.query<{ value: string }>(
        `SELECT value FROM ${this.s}.archive_meta WHERE key = 'case_levels'`,
      );
      return rows[0] === undefined ? undefined : rows[0].value.split(',').filter((l) => l !== '');
    });
  }

  /** A read-only open of a schema from before cases has no case tables: known from the open, never asked again. */
  private keptCases<T>(read: (client: pg.Client) => Promise<T>): Promise<T> {
    if (this.version < CASES_VERSION) return Promise.reject(new CasesNotKeptError(this.name));
    return this.run(read);
  }

  cases(q: CaseQuery, filter?: RecordFilter): Promise<CaseView[]> {
    return this.keptCases((client) => listCases(client, this.s, q, filter));
  }

  caseWithRecall(id: number): Promise<{ case: CaseView; recall: Record<string, unknown> | undefined }> {
    return this.keptCases((client) => caseWithRecall(client, this.s, id));
  }

  stepCase(id: number, step: CaseStep, by: StepBy): Promise<CaseView> {
    return this.run((client) => stepCase(client, this.s, this.target.schema, id, step, by));
  }

  stepCases(ids: readonly number[], step: CaseStep, by: StepBy): Promise<CaseView[]> {
    return this.run((client) => stepCases(client, this.s, this.target.schema, ids, step, by));
  }

  verifyCases(): Promise<CaseLogCheck> {
    return this.keptCases((client) => verifyCases(client, this.s));
  }

  async close(): Promise<void> {
    await this.turns;
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }
}
