// The PostgreSQL engine: the archive's tables in one schema of a shared database; what the shared store cannot share.
import type pg from 'pg';
import { SqlStore } from '../sql/store.js';
import type { Dialect } from '../sql/client.js';
import type { ArchiveEngine, Feature } from '../sql/engine.js';
import type { StatsField } from '../stats-fields.js';
import type { ArchiveQuery, ArchiveStore, OpenOptions, StatsResult } from '../store.js';
import { PgClient } from './client.js';
import { commitHorizon } from './commit-stamp.js';
import { cancelBackend } from './cancel.js';
import { connect, databaseError, type PgTarget, sayingOnlyGone } from './connect.js';
import { postgresDialect } from './dialect.js';
import { DEFAULT_LOCK_WAIT_MS, prepareSchema } from './migrate.js';
import { PostgresRecalls } from './recalls.js';
import { CASES_VERSION, OUTBOX_VERSION, quoted } from './schema.js';
import { stats } from './stats.js';
import { stopOnAbort } from './stop.js';
import { setLockWait } from './transactions.js';
import { WorkDone } from './work-done.js';

/** SQLSTATE idle_session_timeout: the server's word that it ended a session left idle too long. */
const IDLE_SESSION_TIMEOUT = '57P05';

/** The schema version that added each feature's tables. */
const FEATURE_VERSIONS: Record<Feature, number> = { cases: CASES_VERSION, outbox: OUTBOX_VERSION };

class PostgresEngine implements ArchiveEngine {
  readonly engine = 'postgres' as const;
  readonly name: string;
  readonly dialect: Dialect;
  readonly recalls: PostgresRecalls;

  /**
   * Undefined after the connection was lost, or the server ended the session for sitting idle (idle_session_timeout):
   * the next call connects again (a `sync --watch` outlives both).
   */
  private sql: PgClient | undefined;
  /** What a lost connection's message says was kept: whether a page was being stored, whether a write committed. */
  private readonly done = new WorkDone();
  /** The server's reason for closing the connection, when it gave one (FATAL 57P05, 25P03) before a call found it gone. */
  private closedFor: unknown;

  constructor(
    private readonly target: PgTarget,
    client: pg.Client,
    private readonly opts: OpenOptions,
    /** The schema's version as opened (prepareSchema): only a read-only open may find an older one. */
    private readonly version: number,
  ) {
    this.name = target.name;
    this.dialect = postgresDialect(target.schema);
    this.recalls = new PostgresRecalls(quoted(target.schema), () => this.done.handedOver());
    this.sql = this.adopt(client);
  }

  /**
   * The client in use. A session the server ends for sitting idle is routine (a policy set on the role or server):
   * nothing was under way, so the client is dropped at once and the next call connects again. Any other end (a DBA's
   * pg_terminate_backend, a restart, a dropped socket) is said by the next call that finds it, which then connects
   * again: a one-shot command fails, a `sync --watch` round fails with a warning.
   */
  private adopt(client: pg.Client): PgClient {
    client.on('error', (err: unknown) => {
      if (this.sql?.client !== client) return;
      // The first word is the server's reason; pg's "Connection terminated" follows as the socket closes.
      this.closedFor ??= err;
      if ((err as { code?: unknown }).code !== IDLE_SESSION_TIMEOUT) return;
      this.sql = undefined;
      client.end().catch(() => {});
    });
    return new PgClient(client, this.target.schema, this.done);
  }

  /**
   * A read-only command cannot write even by mistake; a writer waits for the write lock within bounds; a stop cancels
   * the statement under way.
   */
  static async session(client: pg.Client, target: PgTarget, opts: OpenOptions): Promise<void> {
    if (opts.readOnly) await client.query('SET default_transaction_read_only = on');
    setLockWait(client, {
      ms: opts.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
      signal: opts.signal,
      where: `database ${target.database} on ${target.host}`,
      name: target.name,
    });
    stopOnAbort(client, opts.signal, () => cancelBackend(target, client));
  }

  async client(): Promise<PgClient> {
    if (this.sql) return this.sql;
    this.closedFor = undefined;
    const client = await connect(this.target);
    await PostgresEngine.session(client, this.target, this.opts);
    this.sql = this.adopt(client);
    return this.sql;
  }

  /**
   * The error named with host and database. A connection that is gone (its client said so, or the server's FATAL
   * ended the session: an idle-in-transaction timeout) or unreachable is dropped, to be made again.
   */
  failed(err: unknown): unknown {
    const closed = this.closedFor !== undefined;
    const cause = closed && sayingOnlyGone(err) ? this.closedFor : err;
    const named = databaseError(this.target, cause, this.done.failure());
    const fatal = (cause as { severity?: unknown } | null)?.severity === 'FATAL';
    if (closed || fatal || (named && ['lost', 'lost-page', 'closed', 'down'].includes(named.problem))) {
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
