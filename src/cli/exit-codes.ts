// The one place that decides exit codes, and the one-line message and hint each error gets.
import {
  ApiError,
  ConnectionError,
  InsecureTransportError,
  InvalidApiKeyError,
  InvalidParamsError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExhaustedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  UnauthorizedDataSourcesError,
  ValidationError,
  WaitTooLongError,
} from '../api/errors.js';
import {
  BusyError,
  CannotWriteError,
  InterruptedError,
  MissingApiKeyError,
  ResumableError,
  UnhealthyError,
  UsageError,
} from './errors.js';
import { ConfigError, ConfigValueError } from './config/errors.js';
import { ArchiveError, ArchiveMissingError, ArchiveTooNewError } from '../archive/errors.js';

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notPermitted: 4,
  rateLimited: 5,
  unavailable: 6,
  invalidResponse: 7,
  /** `match --exit-code`: at least one catalogue row matched a recall. */
  matchFound: 8,
  /** Another run holds the lock on the same output or state file. */
  busy: 9,
  /** The output, state or archive file cannot be written (disk full, read-only, permissions, name too long). */
  cannotWrite: 10,
  interrupted: 130,
} as const;

export interface ErrorReport {
  code: number;
  message: string;
  hints: string[];
  /** A complete command that finishes the interrupted job (never contains the key). */
  command?: string;
}

const KEY_HINT =
  'store a key with `recall-feed config set api-key` (reads it from stdin), or set RECALL_FEED_API_KEY; try `--sandbox` to run without one';

const INSECURE_HINT = 'use an https base URL, or pass --allow-insecure-http if you really mean it';

function archiveHint(err: ArchiveError): string {
  if (err instanceof ArchiveMissingError) return 'run `recall-feed sync` first to create it, or point --db or RECALL_FEED_DB at an archive';
  if (err instanceof ArchiveTooNewError) return 'upgrade recall-feed to read it, or give another file with --db';
  return 'point --db at a recall-feed archive, or at a new file for sync to create';
}

function isAbort(err: unknown): boolean {
  return err instanceof InterruptedError || (err instanceof Error && err.name === 'AbortError');
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
  if (isAbort(err)) return { code: EXIT.interrupted, message: 'interrupted', hints: [] };
  if (err instanceof UsageError) return { code: EXIT.usage, message: err.message, hints: ownHint(err) };
  if (err instanceof BusyError) return { code: EXIT.busy, message: err.message, hints: ownHint(err) };
  if (err instanceof CannotWriteError) return { code: EXIT.cannotWrite, message: err.message, hints: ownHint(err) };
  if (err instanceof ArchiveError) return { code: EXIT.usage, message: err.message, hints: [archiveHint(err)] };
  if (err instanceof InsecureTransportError) {
    return { code: EXIT.usage, message: err.message, hints: [INSECURE_HINT] };
  }
  if (err instanceof InvalidParamsError) return { code: EXIT.usage, message: err.message, hints: [] };
  if (err instanceof MissingApiKeyError) return { code: EXIT.auth, message: err.message, hints: [KEY_HINT] };
  if (err instanceof InvalidApiKeyError) {
    return { code: EXIT.auth, message: `the API rejected the key: ${err.message}`, hints: [KEY_HINT] };
  }
  if (err instanceof UnauthorizedDataSourcesError) {
    const hints = err.authorized.length ? [`this key may use: ${err.authorized.join(', ')}`] : apiHint(err);
    return { code: EXIT.notPermitted, message: err.message, hints };
  }
  if (err instanceof PermissionDeniedError) return { code: EXIT.notPermitted, message: err.message, hints: apiHint(err) };
  if (err instanceof NotFoundError) return { code: EXIT.notPermitted, message: err.message, hints: apiHint(err) };
  if (err instanceof ValidationError) {
    return { code: EXIT.usage, message: `the API rejected the request: ${err.message}`, hints: apiHint(err) };
  }
  if (err instanceof QuotaExhaustedError) {
    const reset = err.resetAt ? ` it resets on ${err.resetAt.toISOString()}` : '';
    return { code: EXIT.rateLimited, message: `${err.message};${reset}`, hints: ['ask the operator for a higher quota'] };
  }
  if (err instanceof WaitTooLongError) {
    return {
      code: EXIT.rateLimited,
      message: `${err.message} (at ${err.resetAt.toISOString()}), longer than --max-wait allows`,
      hints: ['raise --max-wait to wait it out'],
    };
  }
  if (err instanceof RateLimitError) return { code: EXIT.rateLimited, message: err.message, hints: apiHint(err) };
  if (err instanceof ServerError || err instanceof ServiceUnavailableError) {
    return { code: EXIT.unavailable, message: `the API is unavailable: ${err.message}`, hints: [] };
  }
  if (err instanceof ConnectionError || err instanceof TimeoutError || err instanceof UnhealthyError) {
    return { code: EXIT.unavailable, message: err.message, hints: [] };
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

/** The exit code, message and hints for anything a command throws. */
export function describeError(err: unknown): ErrorReport {
  if (err instanceof ResumableError) {
    const report = describeCause(err.cause);
    return { ...report, hints: [...report.hints, err.note], command: err.resumeCommand };
  }
  return describeCause(err);
}
