// Connects to the archive's PostgreSQL server with pg, and names every failure to reach or use it without the password.
import pg from 'pg';
import { ArchiveDatabaseError, type DatabaseProblem } from '../archive-errors.js';
import type { DbTarget } from '../db-target.js';
import { type PgpassAnswer, type PgpassFor, readPgpass } from './pgpass.js';

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
  let client: pg.Client;
  try {
    // pg reads ?sslrootcert=, ?sslcert= and ?sslkey= here: a missing file fails before any connection.
    client = new pg.Client({
      connectionString: target.url,
      application_name: 'recall-feed',
      connectionTimeoutMillis: 15_000,
      types,
    });
  } catch (err) {
    throw databaseError(target, err, { connecting: true }) ?? err;
  }
  // No password in the URL or PGPASSWORD: the password file's, read by us (pg would warn on stderr at every run).
  let pgpass: PgpassAnswer | undefined;
  if (client.password === null) {
    const lookup = async (params: PgpassFor) => {
      pgpass = await readPgpass(params, process.env);
      return pgpass.password;
    };
    (client as unknown as { password: typeof lookup }).password = lookup;
  }
  // A connection that drops between queries would otherwise crash the process; the next query fails and says so.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw databaseError(target, err, { connecting: true, pgpass: pgpass?.ignored }) ?? err;
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

/** What went wrong, when it is a problem of reaching or using the server; `connecting`: raised while connecting. */
function problemOf(err: unknown, connecting: boolean): DatabaseProblem | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECTION_CODES[code]) return CONNECTION_CODES[code];
  const syscall = (err as { syscall?: unknown } | null)?.syscall;
  // A Unix socket's folder missing or closed to us (PGHOST=/run/x, ?host=/run/x): no server to be reached there.
  if (syscall === 'connect' && (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR')) return 'down';
  // A certificate or key file pg reads before connecting.
  if (syscall === 'open' && connecting) return 'ssl';
  const message = err instanceof Error ? err.message : '';
  if (/Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(message))
    return /timeout/i.test(message) ? 'down' : 'lost';
  if (/SSL|TLS|certificate/i.test(message)) return 'ssl';
  // pg's words for a login that found no password to give (none in the URL, PGPASSWORD or the password file).
  if (/client password must be a string/i.test(message)) return 'password';
  // Any other refusal by the server while starting the session: a setting ?options= names (42704, 22023), too many
  // connections (53300)...
  if (connecting && err instanceof pg.DatabaseError) return 'session';
  return undefined;
}

/** Which TLS file of the URL a failure to open `file` is about. */
function tlsFile(target: PgTarget, file: unknown): string {
  const params = new URL(target.url).searchParams;
  const name = ['sslrootcert', 'sslcert', 'sslkey'].find((p) => params.get(p) === file);
  return `${name ?? 'the TLS file'} ${String(file)}`;
}

/**
 * The failure as ArchiveDatabaseError, naming host and database (never the password); undefined for other errors.
 * `connecting`: raised while connecting, where any refusal of the server's is a problem of the archive's database;
 * `pgpass`: why the password file was not read, said when the login is refused.
 */
export function databaseError(
  target: PgTarget,
  err: unknown,
  context: { connecting?: boolean; pgpass?: string | undefined } = {},
): ArchiveDatabaseError | undefined {
  if (err instanceof ArchiveDatabaseError) return err;
  const problem = problemOf(err, context.connecting === true);
  if (!problem) return undefined;
  const db = `database ${target.database} on ${target.host}`;
  const detail = err instanceof Error ? err.message : String(err);
  const reason = (err as { code?: string }).code === 'ENOENT' ? 'no such file' : detail;
  const { pgpass } = context;
  const messages: Record<DatabaseProblem, string> = {
    password: `PostgreSQL refused the login to ${db}: wrong user name or password${pgpass ? ` (${pgpass})` : ''}`,
    host: `unknown database host ${target.host}`,
    down: `no PostgreSQL server answers at ${target.host} (${db}): ${detail}`,
    database: `${db} does not exist`,
    permission: `permission denied in ${db}: ${detail}`,
    lost: `lost the connection to ${db}; the page being stored was not committed`,
    ssl:
      (err as { syscall?: unknown }).syscall === 'open'
        ? `cannot read ${tlsFile(target, (err as { path?: unknown }).path)} for ${db}: ${reason}`
        : `the TLS connection to ${db} failed: ${detail}`,
    lock: `gave up waiting for a lock in ${db}: ${detail}`,
    timeout: `a statement ran past statement_timeout in ${db}: ${detail}`,
    session: `PostgreSQL refused to start a session in ${db}: ${detail}`,
  };
  return new ArchiveDatabaseError(target.name, problem, messages[problem]);
}
