// The PostgreSQL engine: the archive's tables in one schema of a shared database; what the shared store cannot share.
import type pg from 'pg';
import { SqlStore } from '../sql/store.js';
import type { Dialect } from '../sql/client.js';
import type { ArchiveEngine, Feature } from '../sql/engine.js';
import type { StatsField } from '../stats-fields.js';
import type { ArchiveQuery, ArchiveStore, OpenOptions, StatsResult } from '../store.js';
import { PgClient } from './client.js';
import { commitHorizon } from './commit-stamp.js';
import { cancelBackend, connect, databaseError, type PgTarget } from './connect.js';
import { postgresDialect } from './dialect.js';
import { DEFAULT_LOCK_WAIT_MS, prepareSchema } from './migrate.js';
import { PostgresRecalls } from './recalls.js';
import { CASES_VERSION, OUTBOX_VERSION, quoted } from './schema.js';
import { stats } from './stats.js';
import { setLockWait } from './transactions.js';

/** The schema version that added each feature's tables. */
const FEATURE_VERSIONS: Record<Feature, number> = { cases: CASES_VERSION, outbox: OUTBOX_VERSION };

class PostgresEngine implements ArchiveEngine {
  readonly engine = 'postgres' as const;
  readonly name: string;
  readonly dialect: Dialect;
  readonly recalls: PostgresRecalls;

  /** Undefined after the connection was lost: the next call connects again (a `sync --watch` outlives a restart). */
  private sql: PgClient | undefined;
  /** What a lost connection's message says was kept: whether pages were handed over (a sync), whether a write committed. */
  private readonly done = { pages: false, wrote: false };

  constructor(
    private readonly target: PgTarget,
    client: pg.Client,
    private readonly opts: OpenOptions,
    /** The schema's version as opened (prepareSchema): only a read-only open may find an older one. */
    private readonly version: number,
  ) {
    this.name = target.name;
    this.dialect = postgresDialect(target.schema);
    this.recalls = new PostgresRecalls(quoted(target.schema), () => {
      this.done.pages = true;
    });
    this.sql = this.pgClient(client);
  }

  private pgClient(client: pg.Client): PgClient {
    return new PgClient(client, this.target.schema, () => {
      this.done.wrote = true;
    });
  }

  /** A read-only command cannot write even by mistake; a writer waits for the write lock within bounds. */
  static async session(client: pg.Client, target: PgTarget, opts: OpenOptions): Promise<void> {
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

  async client(): Promise<PgClient> {
    if (this.sql) return this.sql;
    const client = await connect(this.target);
    await PostgresEngine.session(client, this.target, this.opts);
    this.sql = this.pgClient(client);
    return this.sql;
  }

  /** The error named with host and database; a lost or unreachable connection is dropped, to be made again. */
  failed(err: unknown): unknown {
    const named = databaseError(this.target, err, this.done);
    if (named && ['lost', 'lost-page', 'closed', 'down'].includes(named.problem)) {
      this.sql?.client.end().catch(() => {});
      this.sql = undefined;
    }
    return named ?? err;
  }

  /** Known from the open, never asked again. */
  keeps(feature: Feature): Promise<boolean> {
    return Promise.resolve(this.version >= FEATURE_VERSIONS[feature]);
  }

  async stats(client: PgClient, q: ArchiveQuery, by: readonly StatsField[]): Promise<StatsResult> {
    return stats(client.client, this.dialect, q, by, this.version);
  }

  async commitHorizon(): Promise<number | undefined> {
    const { client } = await this.client();
    return commitHorizon(client, quoted(this.target.schema), this.target, this.version);
  }

  async close(): Promise<void> {
    await this.sql?.client.end().catch(() => {});
    this.sql = undefined;
  }
}

export const PostgresStore = {
  async open(target: PgTarget, opts: OpenOptions): Promise<ArchiveStore> {
    const client = await connect(target);
    let version: number;
    try {
      version = await prepareSchema(client, target, opts);
      await PostgresEngine.session(client, target, opts);
    } catch (err) {
      await client.end().catch(() => {});
      throw databaseError(target, err) ?? err;
    }
    return new SqlStore(new PostgresEngine(target, client, opts, version));
  },
};
