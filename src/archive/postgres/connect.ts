// Connects to the archive's PostgreSQL server with pg, and names every failure to reach or use it without the password.
import pg from 'pg';
import { ArchiveDatabaseError, type DatabaseProblem } from '../archive-errors.js';
import type { DbTarget } from '../db-target.js';

export type PgTarget = Extract<DbTarget, { kind: 'postgres' }>;

/** bigint columns (ids, µs timestamps) as numbers: every value we store fits in a double exactly. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Asks the server to cancel what `pid` is running (a wait for a lock), over a connection of its own: pg's client
 * cannot be interrupted while it waits for an answer. Best effort: the caller stops waiting either way.
 */
export async function cancelBackend(target: PgTarget, pid: number): Promise<void> {
  const client = await connect(target);
  try {
    await client.query('SELECT pg_cancel_backend($1)', [pid]);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A client of its own per command: one connection, used by one thing at a time. */
export async function connect(target: PgTarget): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: target.url,
    application_name: 'recall-feed',
    connectionTimeoutMillis: 15_000,
    types,
  });
  // A connection that drops between queries would otherwise crash the process; the next query fails and says so.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw databaseError(target, err) ?? err;
  }
  return client;
}

const CONNECTION_CODES: Record<string, DatabaseProblem> = {
  ENOTFOUND: 'host',
  EAI_AGAIN: 'host',
  ECONNREFUSED: 'down',
  EHOSTUNREACH: 'down',
  ENETUNREACH: 'down',
  ETIMEDOUT: 'down',
  ECONNRESET: 'lost',
  EPIPE: 'lost',
  // SQLSTATE: invalid_password, invalid_authorization_specification, invalid_catalog_name, insufficient_privilege,
  // admin_shutdown, crash_shutdown, cannot_connect_now.
  '28P01': 'password',
  '28000': 'password',
  '3D000': 'database',
  '42501': 'permission',
  '57P01': 'lost',
  '57P02': 'lost',
  '57P03': 'down',
  // lock_not_available (lock_timeout), query_canceled (statement_timeout; our own cancel is told apart before).
  '55P03': 'lock',
  '57014': 'timeout',
};

function problemOf(err: unknown): DatabaseProblem | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECTION_CODES[code]) return CONNECTION_CODES[code];
  const message = err instanceof Error ? err.message : '';
  if (/Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(message))
    return /timeout/i.test(message) ? 'down' : 'lost';
  if (/SSL|TLS|certificate/i.test(message)) return 'ssl';
  return undefined;
}

/** The failure as ArchiveDatabaseError, naming host and database (never the password); undefined for other errors. */
export function databaseError(target: PgTarget, err: unknown): ArchiveDatabaseError | undefined {
  if (err instanceof ArchiveDatabaseError) return err;
  const problem = problemOf(err);
  if (!problem) return undefined;
  const db = `database ${target.database} on ${target.host}`;
  const detail = err instanceof Error ? err.message : String(err);
  const messages: Record<DatabaseProblem, string> = {
    password: `PostgreSQL refused the login to ${db}: wrong user name or password`,
    host: `unknown database host ${target.host}`,
    down: `no PostgreSQL server answers at ${target.host} (${db}): ${detail}`,
    database: `${db} does not exist`,
    permission: `permission denied in ${db}: ${detail}`,
    lost: `lost the connection to ${db}; the page being stored was not committed`,
    ssl: `the TLS connection to ${db} failed: ${detail}`,
    lock: `gave up waiting for a lock in ${db}: ${detail}`,
    timeout: `a statement ran past statement_timeout in ${db}: ${detail}`,
  };
  return new ArchiveDatabaseError(target.name, problem, messages[problem]);
}
