// The PostgreSQL engine: the archive's tables in one schema of a shared database, for many writers and readers.
import type pg from 'pg';
import { settleOrigin } from '../origin.js';
import type { StatsField } from '../stats-fields.js';
import type {
  ArchiveExtent,
  ArchiveListing,
  ArchiveOrigin,
  ArchiveQuery,
  ArchiveStore,
  ArchivedRecord,
  OpenOptions,
  RunCounts,
  RunOutcome,
  StatsResult,
  StoredVersion,
  UpsertCounts,
} from '../store.js';
import { connect, databaseError, type PgTarget } from './connect.js';
import { lockName, prepareSchema } from './migrate.js';
import { beginRun, extent, finishRun, versions } from './runs.js';
import { quoted } from './schema.js';
import { listRecords, listRecordTexts } from './select.js';
import { stats } from './stats.js';
import { upsertPage } from './upsert.js';

export class PostgresStore implements ArchiveStore {
  readonly engine = 'postgres' as const;
  readonly name: string;
  private readonly s: string;

  private constructor(
    private readonly target: PgTarget,
    private readonly client: pg.Client,
  ) {
    this.name = target.name;
    this.s = quoted(target.schema);
  }

  static async open(target: PgTarget, opts: OpenOptions): Promise<PostgresStore> {
    const client = await connect(target);
    try {
      await prepareSchema(client, target, opts);
      // A read-only command cannot write even by mistake.
      if (opts.readOnly) await client.query('SET default_transaction_read_only = on');
    } catch (err) {
      await client.end().catch(() => {});
      throw databaseError(target, err) ?? err;
    }
    return new PostgresStore(target, client);
  }

  /** Runs `fn`, naming a lost connection, a refused permission or an unreachable server with host and database. */
  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw databaseError(this.target, err) ?? err;
    }
  }

  private async *stream<T>(rows: () => AsyncGenerator<T>): AsyncGenerator<T> {
    try {
      yield* rows();
    } catch (err) {
      throw databaseError(this.target, err) ?? err;
    }
  }

  claimOrigin(origin: ArchiveOrigin): Promise<void> {
    return this.run(async () => {
      await this.client.query('BEGIN');
      try {
        await this.client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockName(this.target.schema, 'write')]);
        const { rows } = await this.client.query<{ recorded: string | null; has: boolean }>(
          `SELECT (SELECT value FROM ${this.s}.archive_meta WHERE key = 'origin') AS recorded,
                  EXISTS (SELECT 1 FROM ${this.s}.recalls) AS has`,
        );
        const row = rows[0] as { recorded: string | null; has: boolean };
        const holds = settleOrigin(this.name, row.recorded ?? undefined, row.has, origin);
        if (row.recorded === null)
          await this.client.query(`INSERT INTO ${this.s}.archive_meta (key, value) VALUES ('origin', $1)`, [holds]);
        await this.client.query('COMMIT');
      } catch (err) {
        await this.client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    });
  }

  beginRun(params: Record<string, unknown>, atMs: number): Promise<number> {
    return this.run(() => beginRun(this.client, this.s, params, atMs));
  }

  upsertPage(records: readonly ArchivedRecord[], runId: number): Promise<UpsertCounts> {
    return this.run(() => upsertPage(this.client, this.s, this.target.schema, records, runId));
  }

  finishRun(runId: number, outcome: RunOutcome, atMs: number, error?: string): Promise<RunCounts> {
    return this.run(() => finishRun(this.client, this.s, runId, outcome, atMs, error));
  }

  extent(): Promise<ArchiveExtent> {
    return this.run(() => extent(this.client, this.s));
  }

  records(q: ArchiveListing): AsyncIterable<Record<string, unknown>> {
    return this.stream(() => listRecords(this.client, this.s, q));
  }

  recordTexts(q: ArchiveListing): AsyncIterable<string> {
    return this.stream(() => listRecordTexts(this.client, this.s, q));
  }

  versions(id: number): Promise<StoredVersion[]> {
    return this.run(() => versions(this.client, this.s, id));
  }

  stats(q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult> {
    return this.run(() => stats(this.client, this.s, q, by));
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}
