// The one place that decides exit codes, and the one-line message and hint each error gets.
import {
  ApiError,
  ConnectionError,
  InsecureTransportError,
  InvalidApiKeyError,
  InvalidParamsError,
  InvalidResponseError,
  MalformedApiKeyError,
  NotFoundError,
  PermissionDeniedError,
  ProxyAuthError,
  QuotaExhaustedError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  TlsError,
  UnauthorizedDataSourcesError,
  ValidationError,
  WaitTooLongError,
  WrongAddressError,
} from '../api/api-errors.js';
import {
  CliError,
  DoctorFindingsError,
  MatchesFoundError,
  MissingApiKeyError,
  ResumableError,
  UnhealthyError,
} from './cli-errors.js';
import { ConfigError, ConfigValueError } from './config/config-errors.js';
import { isInterrupt } from './failure-policy.js';
import {
  ArchiveCorruptError,
  ArchiveDatabaseError,
  ArchiveError,
  ArchiveMissingError,
  ArchiveOriginError,
  ArchiveTooNewError,
  ArchiveTooOldError,
  type DatabaseProblem,
} from '../archive/archive-errors.js';
import { CaseLogBrokenError, CaseNotFoundError, CaseStepError } from '../archive/cases-errors.js';
import { EXIT } from './exit-codes.js';
import { plainLine } from '../output/control-escapes.js';
import { maskSecrets } from '../api/errors-mask.js';

export interface ErrorReport {
  code: number;
  message: string;
  hints: string[];
  /** A complete command that finishes the interrupted job (never contains the key). */
  command?: string;
  /** An outcome, not a failure: nothing is printed (the summary already said it). */
  silent?: boolean;
}

const KEY_HINT =
  'store a key with `recall-feed config set api-key` (reads it from stdin), or set RECALL_FEED_API_KEY; try `--sandbox` to run without one';

const PROXY_AUTH_HINT =
  "put the proxy's user and password in its address: HTTPS_PROXY=http://user:password@host:port (percent-encode @ and :)";

const INSECURE_HINT = 'use an https base URL, or pass --allow-insecure-http if you really mean it';

const BASE_URL_HINT =
  "check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io";

const MALFORMED_KEY_HINT =
  'the key comes from --api-key, RECALL_FEED_API_KEY or the profile: set it again as one line, e.g. `recall-feed config set api-key` (reads it from stdin)';

const CASE_LOG_HINT =
  'the timeline from that event on cannot be trusted: compare with a backup of the archive, or a report handed over before';

function tlsHints(err: TlsError): string[] {
  if (err.kind === 'protocol')
    return ['check --base-url: is the server https? A plain-http server (such as a local sandbox) needs http://'];
  return [
    'if your own proxy or gateway signs this certificate, point NODE_EXTRA_CA_CERTS at its CA file; otherwise check --base-url',
  ];
}

function redirectHints(err: RedirectError): string[] {
  if (!err.location) return [BASE_URL_HINT];
  return [`the API may have moved to ${err.location}: if you trust that address, pass its root as --base-url`];
}

function waitTooLong(err: WaitTooLongError): ErrorReport {
  const at = err.resetAt.toISOString();
  if (err.pointless) {
    return { code: EXIT.rateLimited, message: `${err.message} (on ${at}): waiting for it is pointless`, hints: [] };
  }
  return {
    code: EXIT.rateLimited,
    message: `${err.message} (at ${at}), longer than --max-wait allows`,
    hints: ['raise --max-wait to wait it out'],
  };
}

const DATABASE_HINTS: Record<DatabaseProblem, string> = {
  password: 'check the user and password in the --db URL (or PGPASSWORD, ~/.pgpass)',
  host: 'check the host name in the --db URL',
  down: 'start the server, or check the host and port in the --db URL',
  database: 'create it (createdb), or name an existing database in the --db URL',
  permission:
    "the role needs CONNECT and CREATE on the database for sync's first run, then USAGE on the schema and rights on its tables (see docs/archive.md: Roles and grants)",
  lost: 'run the command again: what was committed is kept, and the next sync completes it',
  ssl: 'check sslmode in the --db URL (docs/archive.md: TLS)',
  lock: 'another writer (a sync or cases step, maybe stuck on another host) holds it: see pg_stat_activity; RECALL_FEED_DB_LOCK_WAIT sets the wait for the write lock in seconds',
  timeout:
    "raise the role's statement_timeout (ALTER ROLE … SET statement_timeout), or set it in the --db URL: ?options=-c%20statement_timeout%3D0",
};

function archiveHint(err: ArchiveError): string {
  if (err instanceof ArchiveMissingError)
    return 'run `recall-feed sync` first to create it, or point --db or RECALL_FEED_DB at an archive';
  if (err instanceof ArchiveTooNewError) return 'upgrade recall-feed to read it, or give another file with --db';
  if (err instanceof ArchiveTooOldError) return 'run `recall-feed sync` once: it brings the archive forward';
  if (err instanceof ArchiveDatabaseError) return DATABASE_HINTS[err.problem];
  if (err instanceof ArchiveCorruptError)
    return 'restore it from a backup, or move it aside: the next `recall-feed sync` starts a new archive';
  if (err instanceof ArchiveOriginError)
    return err.holds === 'sandbox'
      ? 'sync real recalls into another archive (--db), or remove this sandbox archive'
      : 'with --sandbox or a sandbox key (dr_test_…) the default archive is recalls-sandbox.db: leave out --db, or name another file';
  return 'point --db at a recall-feed archive, or at a new file for sync to create';
}

/** Errors that carry their own hint (config store errors, usage errors, state files). */
function ownHint(err: unknown): string[] {
  const hint = (err as { hint?: unknown }).hint;
  return typeof hint === 'string' && hint !== '' ? [hint] : [];
}

function apiHint(err: ApiError): string[] {
  return err.help ? [err.help] : [];
}

function describeCause(err: unknown): ErrorReport {
  if (isInterrupt(err)) return { code: EXIT.interrupted, message: 'interrupted', hints: [] };
  // The CLI's own errors carry their exit code and hint (UsageError, BusyError, CannotWriteError, ...).
  if (err instanceof CliError) return { code: err.exitCode, message: err.message, hints: ownHint(err) };
  if (err instanceof MatchesFoundError) return { code: EXIT.matchFound, message: err.message, hints: [], silent: true };
  if (err instanceof DoctorFindingsError) {
    const code = err.worst === 'fail' ? EXIT.doctorFailed : EXIT.doctorWarnings;
    return { code, message: err.message, hints: [], silent: true };
  }
  if (err instanceof CaseLogBrokenError)
    return { code: EXIT.caseLogBroken, message: err.message, hints: [CASE_LOG_HINT] };
  if (err instanceof CaseNotFoundError)
    return { code: EXIT.usage, message: err.message, hints: ['list them: recall-feed cases --status all'] };
  if (err instanceof CaseStepError) return { code: EXIT.usage, message: err.message, hints: ownHint(err) };
  if (err instanceof ArchiveDatabaseError)
    return { code: EXIT.database, message: err.message, hints: [archiveHint(err)] };
  if (err instanceof ArchiveCorruptError)
    return { code: EXIT.archiveDamaged, message: err.message, hints: [archiveHint(err)] };
  if (err instanceof ArchiveError) return { code: EXIT.usage, message: err.message, hints: [archiveHint(err)] };
  if (err instanceof InsecureTransportError) {
    return { code: EXIT.usage, message: err.message, hints: [INSECURE_HINT] };
  }
  if (err instanceof MalformedApiKeyError)
    return { code: EXIT.auth, message: err.message, hints: [MALFORMED_KEY_HINT] };
  if (err instanceof InvalidParamsError) return { code: EXIT.usage, message: err.message, hints: [] };
  if (err instanceof MissingApiKeyError) return { code: EXIT.auth, message: err.message, hints: [KEY_HINT] };
  if (err instanceof InvalidApiKeyError) {
    return { code: EXIT.auth, message: `the API rejected the key: ${err.message}`, hints: [KEY_HINT] };
  }
  if (err instanceof UnauthorizedDataSourcesError) {
    const hints = err.authorized.length ? [`this key may use: ${err.authorized.join(', ')}`] : apiHint(err);
    return { code: EXIT.notPermitted, message: err.message, hints };
  }
  if (err instanceof PermissionDeniedError)
    return { code: EXIT.notPermitted, message: err.message, hints: apiHint(err) };
  if (err instanceof NotFoundError) return { code: EXIT.notPermitted, message: err.message, hints: apiHint(err) };
  if (err instanceof ValidationError) {
    return { code: EXIT.usage, message: `the API rejected the request: ${err.message}`, hints: apiHint(err) };
  }
  if (err instanceof QuotaExhaustedError) {
    const reset = err.resetAt ? ` it resets on ${err.resetAt.toISOString()}` : '';
    return {
      code: EXIT.rateLimited,
      message: `${err.message};${reset}`,
      hints: ['ask the operator for a higher quota'],
    };
  }
  if (err instanceof WaitTooLongError) return waitTooLong(err);
  if (err instanceof RateLimitError) return { code: EXIT.rateLimited, message: err.message, hints: apiHint(err) };
  if (err instanceof ServerError || err instanceof ServiceUnavailableError) {
    return { code: EXIT.unavailable, message: `the API is unavailable: ${err.message}`, hints: [] };
  }
  if (err instanceof TlsError) return { code: EXIT.unavailable, message: err.message, hints: tlsHints(err) };
  if (err instanceof ProxyAuthError) return { code: EXIT.unavailable, message: err.message, hints: [PROXY_AUTH_HINT] };
  if (err instanceof ConnectionError || err instanceof TimeoutError || err instanceof UnhealthyError) {
    return { code: EXIT.unavailable, message: err.message, hints: [] };
  }
  // Not the API answering: a wrong address is no transient failure (6), so scripts do not retry it.
  if (err instanceof RedirectError)
    return { code: EXIT.invalidResponse, message: err.message, hints: redirectHints(err) };
  if (err instanceof WrongAddressError)
    return { code: EXIT.invalidResponse, message: err.message, hints: [BASE_URL_HINT] };
  if (err instanceof ResponseTooLargeError) {
    const hint =
      'a smaller --page-size keeps pages small; raise --max-response-mb if the API really sends answers this large';
    return { code: EXIT.invalidResponse, message: `invalid response from the API: ${err.message}`, hints: [hint] };
  }
  if (err instanceof InvalidResponseError) {
    return { code: EXIT.invalidResponse, message: `invalid response from the API: ${err.message}`, hints: [] };
  }
  if (err instanceof ApiError) return { code: EXIT.unexpected, message: err.message, hints: apiHint(err) };
  if (err instanceof ConfigValueError) return { code: EXIT.usage, message: err.message, hints: ownHint(err) };
  if (err instanceof ConfigError) return { code: EXIT.unexpected, message: err.message, hints: ownHint(err) };
  const message = err instanceof Error ? err.message : String(err);
  return { code: EXIT.unexpected, message: `unexpected error: ${message}`, hints: [] };
}

/**
 * Messages, hints and the resume command carry text the server chose (detail.message, help, details.*, a
 * redirect's address, next_cursor): a terminal would act on its control codes (retitle, clear, switch
 * screens, hide links). Every one is made plain text before anyone prints it.
 */
function plain(report: ErrorReport, secrets: readonly string[]): ErrorReport {
  const clean = (text: string) => plainLine(maskSecrets(text, secrets));
  return {
    ...report,
    message: clean(report.message),
    hints: report.hints.map(clean),
    ...(report.command === undefined ? {} : { command: plainLine(report.command) }),
  };
}

/**
 * The exit code, message and hints for anything a command throws, as plain text; `secrets` (the run's key,
 * webhook, SMTP and database URLs: config/run-secrets.ts) are masked wherever a server echoed them.
 */
export function describeError(err: unknown, secrets: readonly string[] = []): ErrorReport {
  if (err instanceof ResumableError) {
    const report = describeCause(err.cause);
    return plain({ ...report, hints: [...report.hints, err.note], command: err.resumeCommand }, secrets);
  }
  return plain(describeCause(err), secrets);
}
