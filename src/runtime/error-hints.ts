// The hints (and the few messages) of error-table.ts that need more than one line, or a look inside the error.
import type { RedirectError, TlsError, UnauthorizedDataSourcesError, WaitTooLongError } from '../api/api-errors.js';
import type { DatabaseProblem, SqliteDriverError } from '../archive/archive-errors.js';
import { shellQuote } from './shell-quote.js';

/** The fixed hints, by what they are about. */
export const H = {
  key: 'store a key with `recall-feed config set api-key` (reads it from stdin), or set RECALL_FEED_API_KEY; try `--sandbox` to run without one',
  malformedKey:
    'the key comes from --api-key, RECALL_FEED_API_KEY or the profile: set it again as one line, e.g. `recall-feed config set api-key` (reads it from stdin)',
  insecure: 'use an https base URL, or pass --allow-insecure-http if you really mean it',
  proxyAuth:
    "put the proxy's user and password in its address (HTTPS_PROXY for an https API, HTTP_PROXY for http): http://user:password@host:port (percent-encode @ and :)",
  baseUrl:
    "check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io",
  quota: 'ask the operator for a higher quota',
  tooLarge:
    'a smaller --page-size keeps pages small; raise --max-response-mb if the API really sends answers this large',
  notAnArchive: 'point --db at a recall-feed archive, or at a new file for sync to create',
  archiveMissing: 'run `recall-feed sync` first to create it, or point --db or RECALL_FEED_DB at an archive',
  archiveTooNew: 'upgrade recall-feed to read it, or give another file with --db',
  archiveTooOld: 'run `recall-feed sync` once: it brings the archive forward',
  archiveCorrupt: 'restore it from a backup, or move it aside: the next `recall-feed sync` starts a new archive',
  archiveBusy:
    'another program has it open: a recall-feed writing it (a sync, a cases step, match --open-cases), or, as a sync switches it to WAL, one still reading it (a query or stats paged into less, the sqlite3 shell, Datasette); `fuser` or `lsof` on the file shows which: run the command again once it has finished',
  holdsSandbox: 'sync real recalls into another archive (--db), or remove this sandbox archive',
  holdsReal:
    'with --sandbox or a sandbox key (dr_test_…) the default archive is recalls-sandbox.db: leave out --db, or name another file',
  listCases: 'list them: recall-feed cases --status all',
  caseLog:
    'the timeline from that event on cannot be trusted: compare with a backup of the archive, or a report handed over before',
} as const;

export const DATABASE_HINTS: Record<DatabaseProblem, string> = {
  password: 'check the user and password in the --db URL (or PGPASSWORD, ~/.pgpass)',
  'no-password':
    'give it in the --db URL (postgres://user:password@host/db), in PGPASSWORD, or as a line host:port:database:user:password of the password file (chmod 600; docs/archive.md: PostgreSQL)',
  host: 'check the host name in the --db URL',
  down: 'start the server, or check the host and port in the --db URL',
  database: 'create it (createdb), or name an existing database in the --db URL',
  permission:
    "the role needs CONNECT and CREATE on the database for sync's first run, then USAGE on the schema and rights on its tables (see docs/archive.md: Roles and grants)",
  lost: 'run it again',
  'lost-page': 'run the command again: what was committed is kept, and the next sync completes it',
  closed:
    'check the host and port in the --db URL, and sslnegotiation: a server without TLS closes a connection that starts with it (docs/archive.md: TLS)',
  owner:
    "or give this role the owner's rights (GRANT <owner> TO <this role>; docs/archive.md: Roles and grants), and run the command again",
  ssl: 'check sslmode, and the files sslrootcert, sslcert and sslkey name, in the --db URL (docs/archive.md: TLS)',
  lock: 'another writer (a sync or cases step, maybe stuck on another host) holds it: see pg_stat_activity; RECALL_FEED_DB_LOCK_WAIT sets the wait for the write lock in seconds',
  timeout:
    "raise the role's statement_timeout (ALTER ROLE … SET statement_timeout), or set it in the --db URL: ?options=-c%20statement_timeout%3D0",
  session:
    "check the settings the --db URL passes (?options=-c%20name%3Dvalue: a setting this server knows, with a value it takes), and the role's and database's own (ALTER ROLE … SET)",
};

/** The driver rebuilt where it is installed (the folder when the error names it), or recall-feed reinstalled. */
export function sqliteDriverHint(err: SqliteDriverError): string {
  const rebuild = err.installFolder
    ? `run \`cd ${shellQuote(err.installFolder)} && npm rebuild better-sqlite3\``
    : 'run `npm rebuild better-sqlite3` in the folder recall-feed is installed in';
  return `an install problem, not a bug (a Node.js upgraded since the install, a node_modules from another machine): ${rebuild}, or reinstall recall-feed; a PostgreSQL --db needs no driver`;
}

export function tlsHint(err: TlsError): string {
  if (err.kind === 'protocol')
    return 'check --base-url: is the server https? A plain-http server (such as a local sandbox) needs http://';
  return 'if your own proxy or gateway signs this certificate, point NODE_EXTRA_CA_CERTS at its CA file; otherwise check --base-url';
}

export function redirectHint(err: RedirectError): string {
  if (!err.location) return H.baseUrl;
  return `the API may have moved to ${err.location}: if you trust that address, pass its root as --base-url`;
}

/** The sources the key may use, when the API said; else its own help. */
export function unauthorizedHint(err: UnauthorizedDataSourcesError): string | undefined {
  return err.authorized.length ? `this key may use: ${err.authorized.join(', ')}` : err.help;
}

/** A reset beyond any sensible --max-wait says so, rather than advise raising it. */
export const waitTooLong = {
  message(err: WaitTooLongError): string {
    const at = err.resetAt.toISOString();
    return err.pointless
      ? `${err.message} (on ${at}): waiting for it is pointless`
      : `${err.message} (at ${at}), longer than --max-wait allows`;
  },
  hint: (err: WaitTooLongError) => (err.pointless ? undefined : 'raise --max-wait to wait it out'),
};
