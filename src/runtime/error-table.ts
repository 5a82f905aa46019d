// The one table from an error class to its exit code, its one-line message and its hint; error-reports.ts reads it.
import {
  ApiError,
  ConnectionError,
  InsecureTransportError,
  InvalidApiKeyError,
  InvalidParamsError,
  InvalidResponseError,
  MalformedApiKeyError,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  ProxyAuthError,
  QuotaExhaustedError,
  RateLimitError,
  RecallFeedError,
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
import { CommandSyntaxError } from '../actions/command-words.js';
import { EmailAddressError, SmtpUrlError } from '../actions/email-smtp.js';
import { WebhookUrlError } from '../actions/webhook-url.js';
import {
  ArchiveBusyError,
  ArchiveCorruptError,
  ArchiveDatabaseError,
  ArchiveError,
  ArchiveMissingError,
  ArchiveOriginError,
  ArchiveTooNewError,
  ArchiveTooOldError,
  NotAnArchiveError,
  SqliteDriverError,
} from '../archive/archive-errors.js';
import { CaseLogBrokenError, CaseNotFoundError, CasesNotKeptError, CaseStepError } from '../archive/cases-errors.js';
import { DbTargetError } from '../archive/db-target.js';
import { CatalogueColumnsError } from '../match/catalogue-columns.js';
import { CatalogueReadError } from '../match/catalogue.js';
import { OutputClosedError } from '../output/backpressure.js';
import { ParquetValueError } from '../output/parquet.js';
import {
  DoctorFindingsError,
  InterruptedError,
  MatchesFoundError,
  MissingApiKeyError,
  UnhealthyError,
} from './cli-errors.js';
import {
  ConfigError,
  ConfigReadError,
  ConfigShapeError,
  ConfigValueError,
  ConfigWriteError,
} from './config/config-errors.js';
import {
  DATABASE_HINTS,
  H,
  redirectHint,
  sqliteDriverHint,
  tlsHint,
  unauthorizedHint,
  waitTooLong,
} from './error-hints.js';
import type { EXIT } from './exit-codes.js';

/** An exit code by its name in EXIT (the docs group the table's rows by it). */
export type ExitName = keyof typeof EXIT;

/** What an error class leads to. Text a function returns may come from the server: error-reports.ts makes it plain. */
export interface ErrorRow<E extends Error = Error> {
  error: abstract new (...args: never[]) => E;
  /** The exit code; where the error itself decides, the codes it may pick (`among`, for the docs) and how. */
  exit: ExitName | { among: readonly ExitName[]; pick: (err: E) => ExitName };
  /** The message; the error's own when absent. */
  message?: (err: E) => string;
  /** A next step for the user; none when absent or when the function gives undefined or ''. */
  hint?: string | ((err: E) => string | undefined);
  /** An outcome, not a failure: nothing is printed (the command's own output already said it). */
  silent?: true;
}

/** A row, typed by its class so that its functions see the class's fields. */
function row<E extends Error>(error: ErrorRow<E>['error'], spec: Omit<ErrorRow<E>, 'error'>): ErrorRow {
  return { error, ...spec } as unknown as ErrorRow;
}

/** For errors that are a bug if they end a run: said as such, exit 1. */
const UNEXPECTED = { exit: 'unexpected', message: (e: Error) => `unexpected error: ${e.message}` } as const;
/** The hint an error carries itself (config store, case steps, catalogue reading). */
const own = (e: { hint?: string }) => e.hint;
/** The API's own `help` text. */
const help = (e: ApiError) => e.help;
const invalidResponse = (e: Error) => `invalid response from the API: ${e.message}`;
const unavailable = (e: Error) => `the API is unavailable: ${e.message}`;

/**
 * The API's help, or for a request too large for the server (413, 414, 431: a long --cursor or --sources list, which
 * error-mapping.ts names in `details.parameter`), what to shorten.
 */
function validationHint(e: ValidationError): string | undefined {
  if (e.help !== undefined || ![413, 414, 431].includes(e.status)) return e.help;
  const parameter = e.details?.parameter;
  if (parameter === 'cursor')
    return 'give --cursor a next_cursor the API sent, or leave it out to start from the first page';
  if (parameter === 'data_sources') return 'ask for fewer --sources in one run';
  return 'shorten what the request carries: --cursor, the --sources list or the API key';
}

/**
 * Every error class a run may end with, and what it leads to. A subclass without a row of its own takes its
 * nearest base's (describeError walks the prototype chain); test/unit/error-table.test.ts checks that every
 * exported error class of src/ has a row of its own, or is a CliError (which carries its code and hint).
 */
export const ERROR_TABLE: readonly ErrorRow[] = [
  // The API client (src/api): what the server or the network did, and input refused before any request.
  row(RecallFeedError, UNEXPECTED),
  row(ApiError, { exit: 'unexpected', hint: help }),
  row(InvalidApiKeyError, { exit: 'auth', message: (e) => `the API rejected the key: ${e.message}`, hint: H.key }),
  row(MalformedApiKeyError, { exit: 'auth', hint: H.malformedKey }),
  row(PermissionDeniedError, { exit: 'notPermitted', hint: help }),
  row(UnauthorizedDataSourcesError, { exit: 'notPermitted', hint: unauthorizedHint }),
  row(NotFoundError, { exit: 'notPermitted', hint: help }),
  row(ValidationError, {
    exit: 'usage',
    message: (e) => `the API rejected the request: ${e.message}`,
    hint: validationHint,
  }),
  row(InvalidParamsError, { exit: 'usage' }),
  row(InsecureTransportError, { exit: 'usage', hint: H.insecure }),
  row(RateLimitError, { exit: 'rateLimited', hint: help }),
  row(QuotaExhaustedError, {
    exit: 'rateLimited',
    message: (e) => `${e.message};${e.resetAt ? ` it resets on ${e.resetAt.toISOString()}` : ''}`,
    hint: H.quota,
  }),
  row(WaitTooLongError, { exit: 'rateLimited', ...waitTooLong }),
  row(ServerError, { exit: 'unavailable', message: unavailable }),
  row(ServiceUnavailableError, { exit: 'unavailable', message: unavailable }),
  row(ConnectionError, { exit: 'unavailable' }),
  row(TimeoutError, { exit: 'unavailable' }),
  row(TlsError, { exit: 'unavailable', hint: tlsHint }),
  row(ProxyAuthError, { exit: 'unavailable', hint: H.proxyAuth }),
  // Not the API answering: a wrong address is no transient failure (6), so scripts do not retry it.
  row(WrongAddressError, { exit: 'invalidResponse', hint: H.baseUrl }),
  row(RedirectError, { exit: 'invalidResponse', hint: redirectHint }),
  row(InvalidResponseError, { exit: 'invalidResponse', message: invalidResponse }),
  row(PaginationError, { exit: 'invalidResponse', message: invalidResponse }),
  row(ResponseTooLargeError, { exit: 'invalidResponse', message: invalidResponse, hint: H.tooLarge }),

  // The archive (src/archive): its file or database, and its cases.
  row(ArchiveError, { exit: 'usage', hint: H.notAnArchive }),
  row(NotAnArchiveError, { exit: 'usage', hint: H.notAnArchive }),
  row(ArchiveMissingError, { exit: 'usage', hint: H.archiveMissing }),
  row(ArchiveTooNewError, { exit: 'usage', hint: H.archiveTooNew }),
  row(ArchiveTooOldError, { exit: 'usage', hint: H.archiveTooOld }),
  row(ArchiveOriginError, { exit: 'usage', hint: (e) => (e.holds === 'sandbox' ? H.holdsSandbox : H.holdsReal) }),
  row(ArchiveCorruptError, { exit: 'archiveDamaged', hint: H.archiveCorrupt }),
  row(ArchiveBusyError, { exit: 'busy', hint: H.archiveBusy }),
  row(ArchiveDatabaseError, { exit: 'database', hint: (e) => DATABASE_HINTS[e.problem] }),
  row(SqliteDriverError, { exit: 'sqliteDriver', hint: sqliteDriverHint }),
  row(CaseNotFoundError, { exit: 'usage', hint: H.listCases }),
  row(CaseStepError, { exit: 'usage', hint: own }),
  row(CaseLogBrokenError, { exit: 'caseLogBroken', hint: H.caseLog }),
  // The jobs say it as a note, or as a usage error naming the case; were one to escape, it is the same.
  row(CasesNotKeptError, { exit: 'usage' }),

  // Input the libraries refuse; the jobs turn most into a UsageError with a hint for where the value came from.
  row(DbTargetError, { exit: 'usage', hint: own }),
  row(CommandSyntaxError, { exit: 'usage' }),
  row(WebhookUrlError, { exit: 'usage' }),
  row(SmtpUrlError, { exit: 'usage' }),
  row(EmailAddressError, { exit: 'usage' }),
  row(CatalogueReadError, { exit: 'usage', hint: own }),
  row(CatalogueColumnsError, { exit: 'usage' }),
  // A value of another shape than the record schema gives its Parquet column: data the API sent that cannot be
  // written as typed, so an invalid response (7) and no bug. The file is not committed, nothing is lost.
  row(ParquetValueError, {
    exit: 'invalidResponse',
    hint: 'the file was left as it was; -f jsonl or -f csv write records of any shape',
  }),
  row(OutputClosedError, UNEXPECTED),

  // The profile store (runtime/config): a value refused, or a file that cannot be read (damaged by a hand edit), is the
  // user's to mend (exit 2); a file that cannot be written is exit 10, as every other file.
  row(ConfigError, { exit: 'unexpected', hint: own }),
  row(ConfigValueError, { exit: 'usage', hint: own }),
  row(ConfigReadError, { exit: 'usage', hint: own }),
  row(ConfigWriteError, { exit: 'cannotWrite', hint: own }),
  row(ConfigShapeError, UNEXPECTED),

  // The run's own errors that are no CliError: a missing key, an unhealthy API, an interrupt, and outcomes.
  row(MissingApiKeyError, { exit: 'auth', hint: H.key }),
  row(UnhealthyError, { exit: 'unavailable' }),
  row(InterruptedError, { exit: 'interrupted', message: () => 'interrupted' }),
  row(MatchesFoundError, { exit: 'matchFound', silent: true }),
  row(DoctorFindingsError, {
    exit: {
      among: ['doctorWarnings', 'doctorFailed'],
      pick: (e) => (e.worst === 'fail' ? 'doctorFailed' : 'doctorWarnings'),
    },
    silent: true,
  }),
];

const BY_CLASS = new Map<unknown, ErrorRow>(ERROR_TABLE.map((r) => [r.error, r]));

/** The row of `err`'s class, or of its nearest base that has one; undefined for anything else. */
export function rowFor(err: unknown): ErrorRow | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  for (let proto = Object.getPrototypeOf(err); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const found = BY_CLASS.get(proto.constructor);
    if (found) return found;
  }
  return undefined;
}

/** The codes a row may give, by name. */
export function rowExits(r: ErrorRow): readonly ExitName[] {
  return typeof r.exit === 'string' ? [r.exit] : r.exit.among;
}
