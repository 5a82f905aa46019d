// Errors the command-line layer raises itself (the client's own are in api/errors.ts).
import { counted } from '../output/numbers.js';
import { EXIT } from './exit-codes.js';

/**
 * The base of the CLI's own errors: each carries its exit code and, where it helps, a hint, so that
 * error-reports.ts maps them all with one rule. (Library errors, which know nothing of exit codes, and the
 * errors here older than this base have a row each in error-table.ts.)
 */
export abstract class CliError extends Error {
  abstract readonly exitCode: number;
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** Bad flags or values: exit 2, and no request was sent. */
export class UsageError extends CliError {
  override name = 'UsageError';
  readonly exitCode: number = EXIT.usage;
}

/** No API key from the flag, the environment or the profile. */
export class MissingApiKeyError extends Error {
  override name = 'MissingApiKeyError';
}

/** The reason the context's signal carries when the user presses Ctrl-C or the process gets SIGTERM. */
export class InterruptedError extends Error {
  override name = 'InterruptedError';
  constructor(signal: string) {
    super(`interrupted by ${signal}`);
  }
}

/** /health answered, but not healthy. */
export class UnhealthyError extends Error {
  override name = 'UnhealthyError';
}

/** A run that failed part-way, with the command that finishes the job. The exit code follows `cause`. */
export class ResumableError extends Error {
  override name = 'ResumableError';
  override readonly cause: unknown;
  readonly resumeCommand: string;
  readonly note: string;
  constructor(cause: unknown, resumeCommand: string, note: string) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.cause = cause;
    this.resumeCommand = resumeCommand;
    this.note = note;
  }
}

/** Another run holds the lock on the same output or state file, and the wait for it ran out. */
export class BusyError extends CliError {
  override name = 'BusyError';
  readonly exitCode: number = EXIT.busy;
}

/** A file the run must write (output, state, archive) cannot be written; the message names the path and the reason. */
export class CannotWriteError extends CliError {
  override name = 'CannotWriteError';
  readonly exitCode: number = EXIT.cannotWrite;
  readonly path: string;
  constructor(path: string, reason: string, hint?: string) {
    super(`cannot write ${path}: ${reason}`, hint);
    this.path = path;
  }
}

/**
 * `match --exit-code` found at least one `match` row: not a failure, an answer for scripts (exit 8). `matches` counts
 * the `match` rows (a catalogue row and a recall each), as match's summary line does.
 */
export class MatchesFoundError extends Error {
  override name = 'MatchesFoundError';
  constructor(readonly matches: number) {
    super(counted(matches, 'match', 'matches'));
  }
}

/** `doctor`: some check warned (exit 15) or failed (exit 16); the table or JSON already said which. */
export class DoctorFindingsError extends Error {
  override name = 'DoctorFindingsError';
  constructor(readonly worst: 'warn' | 'fail') {
    super(worst === 'fail' ? 'a doctor check failed' : 'a doctor check warned');
  }
}

/** `digest --email` or `--webhook`: the SMTP server or the webhook refused the digest, or could not be reached (exit 11). */
export class NotDeliveredError extends CliError {
  override name = 'NotDeliveredError';
  readonly exitCode: number = EXIT.notDelivered;
}
