// Connects to the archive's PostgreSQL server with pg, and names every failure to reach or use it without the password.
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { ArchiveDatabaseError, type DatabaseProblem, fileErrorWords } from '../archive-errors.js';
import type { DbTarget } from '../db-target.js';
import { type PgpassAnswer, type PgpassFor, readPgpass } from './pgpass.js';
import { refusePlainText, urlParams } from './plain-text.js';

export type PgTarget = Extract<DbTarget, { kind: 'postgres' }>;

/** bigint columns (ids, µs timestamps) as numbers: every value we store fits in a double exactly. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A client of its own per command: one connection, used by one thing at a time. */
export async function connect(target: PgTarget): Promise<pg.Client> {
  // Before pg reads a file or looks a name up: a password never leaves this machine in clear text unasked.
  refusePlainText(target, process.env);
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
    throw tlsFileError(target, err) ?? databaseError(target, err, { connecting: true }) ?? err;
  }
  // No password in the URL or PGPASSWORD: the password file's, read by us (pg would warn on stderr at every run).
  let looked: { for: PgpassFor; answer: PgpassAnswer } | undefined;
  if (client.password === null) {
    const lookup = async (params: PgpassFor) => {
      looked = { for: params, answer: await readPgpass(params, process.env) };
      return looked.answer.password;
    };
    (client as unknown as { password: typeof lookup }).password = lookup;
  }
  // A connection that drops between queries would otherwise crash the process; the next query fails and says so.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    // The server asked for a password and there was none to give: pg failed here, the server refused nothing.
    if (looked && looked.answer.password === undefined && problemOf(err, true) === 'password')
      throw noPasswordError(target, looked.for, looked.answer);
    throw databaseError(target, err, { connecting: true }) ?? err;
  }
  return client;
}

/** The TLS files of the URL, in the order pg reads them as it makes the client (pg-connection-string). */
const TLS_FILES = ['sslcert', 'sslkey', 'sslrootcert'] as const;

/**
 * A file-system error raised while pg made the client: it reads the URL's sslcert, sslkey and sslrootcert then, and
 * nothing else. Which one failed is the error's path, or (a read that failed after the open, EISDIR) the first that
 * cannot be read. Undefined for any other error.
 */
function tlsFileError(target: PgTarget, err: unknown): ArchiveDatabaseError | undefined {
  const words = fileErrorWords(err, 'read');
  if (words === undefined) return undefined;
  const params = urlParams(target.url);
  const named = TLS_FILES.flatMap((name) => {
    const file = params.get(name);
    return file ? [{ name, file }] : [];
  });
  const path = (err as { path?: unknown }).path;
  const failed =
    named.find((n) => n.file === path) ??
    named.find((n) => {
      try {
        readFileSync(n.file);
        return false;
      } catch {
        return true;
      }
    });
  const what = failed ? `${failed.name} ${failed.file}` : 'a TLS file of the URL';
  return new ArchiveDatabaseError(target.name, 'ssl', `cannot read ${what} for ${dbOf(target)}: ${words}`);
}

/** No password for the login in the URL, PGPASSWORD or the password file (or that file was not read, and why). */
function noPasswordError(target: PgTarget, of: PgpassFor, answer: PgpassAnswer): ArchiveDatabaseError {
  const who = `${of.user}@${of.host}:${of.port}/${of.database}`;
  const why = answer.ignored ? ` (${answer.ignored})` : '';
  return new ArchiveDatabaseError(
    target.name,
    'no-password',
    `no password for ${who} in the --db URL, PGPASSWORD or ${answer.file}${why}`,
  );
}

const dbOf = (target: PgTarget) => `database ${target.database} on ${target.host}`;

/** What went wrong reaching or using the server, as its answer or the socket's error tells (a missing password aside). */
type ServerProblem = Exclude<DatabaseProblem, 'no-password' | 'owner'>;

const CONNECTION_CODES: Record<string, ServerProblem> = {
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
  // too_many_connections: only ever as a session starts.
  '53300': 'session',
  // lock_not_available (lock_timeout), query_canceled (statement_timeout; our own cancel is told apart before).
  '55P03': 'lock',
  '57014': 'timeout',
};

/** What went wrong, when it is a problem of reaching or using the server; `connecting`: raised while connecting. */
function problemOf(err: unknown, connecting: boolean): ServerProblem | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECTION_CODES[code]) return CONNECTION_CODES[code];
  const syscall = (err as { syscall?: unknown } | null)?.syscall;
  // A Unix socket's folder missing or closed to us (PGHOST=/run/x, ?host=/run/x): no server to be reached there.
  if (syscall === 'connect' && (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR')) return 'down';
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

/** What the command had done when its error came: a lost connection says what of its work was kept. */
export interface FailureContext {
  /** Raised while connecting: any refusal of the server's is a problem of the archive's database, and nothing was lost. */
  connecting?: boolean;
  /** The command stores a sync's pages. */
  pages?: boolean;
  /** The command committed a write before (a case step, cases opened in an earlier round). */
  wrote?: boolean;
}

/** A dropped connection in the words of what was under way: a connection never made, a sync's page, any other command. */
function lostAs(context: FailureContext): ServerProblem {
  if (context.connecting) return 'closed';
  return context.pages ? 'lost-page' : 'lost';
}

/** What of the command's work a failure after it began left in the archive. */
function keptWords(context: FailureContext): string {
  if (context.pages) return 'the page being stored was not committed';
  return context.wrote ? 'only what this command committed before is kept' : 'nothing of this command was committed';
}

/**
 * A refusal PostgreSQL names by its SQLSTATE, in our words: `problem` picks the hint (`lost`: run it again, once the
 * cause is gone), `says` the message. Never the server's own words where they may name its files (a full disk's
 * message names the relation file it could not extend).
 */
interface Refusal {
  problem: 'session' | 'lost';
  says: (db: string, detail: string, kept: string) => string;
}

const REFUSALS: Record<string, Refusal> = {
  // read_only_sql_transaction: a read-only role or database, or a hot standby (every transaction is read-only there).
  '25006': {
    problem: 'session',
    says: (db) =>
      `PostgreSQL refused to write in ${db}: the role or database is read-only (default_transaction_read_only), or the server is a standby in recovery (--db must name the primary)`,
  },
  // idle_in_transaction_session_timeout, idle_session_timeout: the server ended the session.
  '25P03': {
    problem: 'session',
    says: (db, _, kept) =>
      `PostgreSQL ended the session in ${db}: a transaction waited between two statements longer than idle_in_transaction_session_timeout; ${kept}`,
  },
  '57P05': {
    problem: 'lost',
    says: (db, _, kept) => `PostgreSQL ended the session in ${db} at its idle_session_timeout; ${kept}`,
  },
  // Class 53, insufficient_resources: the server's disk, memory or limits, not the command's.
  '53100': { problem: 'lost', says: (db, _, kept) => `the database server of ${db} is out of disk space; ${kept}` },
  '53200': { problem: 'lost', says: (db, _, kept) => `the database server of ${db} ran out of memory; ${kept}` },
  '53400': {
    problem: 'session',
    says: (db, detail, kept) => `a statement went past a limit the server sets in ${db}: ${detail}; ${kept}`,
  },
};

/** Any other of class 53: named by its code alone. */
const SHORT_OF_RESOURCES: Refusal = {
  problem: 'lost',
  says: (db, _, kept) => `the database server of ${db} is short of resources; ${kept}`,
};

function refusalOf(err: unknown): Refusal | undefined {
  if (!(err instanceof pg.DatabaseError) || err.code === undefined) return undefined;
  return REFUSALS[err.code] ?? (err.code.startsWith('53') && err.code !== '53300' ? SHORT_OF_RESOURCES : undefined);
}

/**
 * An error of pg's own that says only that the connection is gone (no SQLSTATE): the server's reason, when it gave one
 * before (an idle session's timeout), names it better.
 */
export function sayingOnlyGone(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /Connection terminated|not queryable/i.test(message) && !(err instanceof pg.DatabaseError);
}

/** The failure as ArchiveDatabaseError, naming host and database (never the password); undefined for other errors. */
export function databaseError(
  target: PgTarget,
  err: unknown,
  context: FailureContext = {},
): ArchiveDatabaseError | undefined {
  if (err instanceof ArchiveDatabaseError) return err;
  const db = dbOf(target);
  const detail = err instanceof Error ? err.message : String(err);
  const refusal = refusalOf(err);
  if (refusal) {
    const problem = refusal.problem === 'lost' && !context.connecting ? lostAs(context) : refusal.problem;
    return new ArchiveDatabaseError(target.name, problem, refusal.says(db, detail, keptWords(context)));
  }
  const found = problemOf(err, context.connecting === true);
  if (!found) return undefined;
  const problem = found === 'lost' ? lostAs(context) : found;
  const messages: Record<ServerProblem, string> = {
    password: `PostgreSQL refused the login to ${db}: wrong user name or password`,
    host: `unknown database host ${target.host}`,
    down: `no PostgreSQL server answers at ${target.host} (${db}): ${detail}`,
    database: `${db} does not exist`,
    permission: `permission denied in ${db}: ${detail}`,
    lost: `lost the connection to ${db}; ${keptWords(context)}`,
    'lost-page': `lost the connection to ${db}; ${keptWords(context)}`,
    closed: `could not connect to ${db}: the server closed the connection (${detail})`,
    ssl: `the TLS connection to ${db} failed: ${detail}`,
    lock: `gave up waiting for a lock in ${db}: ${detail}`,
    timeout: `a statement ran past statement_timeout in ${db}: ${detail}`,
    session: `PostgreSQL refused to start a session in ${db}: ${detail}`,
  };
  return new ArchiveDatabaseError(target.name, problem, messages[problem]);
}
