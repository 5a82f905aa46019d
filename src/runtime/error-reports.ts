// The one place that decides exit codes, and the one-line message and hint each error gets: error-table.ts,
// then a CliError's own code and hint, then "unexpected". Loaded only when a run fails.
import { CliError, ResumableError } from './cli-errors.js';
import { rowFor, type ErrorRow } from './error-table.js';
import { isInterrupt } from './failure-policy.js';
import { EXIT } from './exit-codes.js';
import { plainLine } from '../output/control-escapes.js';
import { maskSecrets } from '../api/errors-mask.js';
import { cannotWrite, errnoCode } from './files/write-errors.js';

export interface ErrorReport {
  code: number;
  message: string;
  hints: string[];
  /** A complete command that finishes the interrupted job (never contains the key). */
  command?: string;
  /** An outcome, not a failure: nothing is printed (the summary already said it). */
  silent?: boolean;
}

/** A hint list of at most one: none for an empty or absent hint. */
function hintsOf(hint: string | undefined): string[] {
  return typeof hint === 'string' && hint !== '' ? [hint] : [];
}

function fromRow(r: ErrorRow, err: Error): ErrorReport {
  const exit = typeof r.exit === 'string' ? r.exit : r.exit.pick(err);
  const hint = typeof r.hint === 'function' ? r.hint(err) : r.hint;
  return {
    code: EXIT[exit],
    message: r.message ? r.message(err) : err.message,
    hints: hintsOf(hint),
    ...(r.silent ? { silent: true } : {}),
  };
}

/** Errors of the disk under a write, whichever file it was. */
const OUTPUT_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS']);

function describeCause(err: unknown): ErrorReport {
  // An abort that surfaced through a library (undici, pg) is an AbortError of its own, known by name only.
  if (isInterrupt(err)) return { code: EXIT.interrupted, message: 'interrupted', hints: [] };
  const r = rowFor(err);
  if (r) return fromRow(r, err as Error);
  // The CLI's own errors carry their exit code and hint (UsageError, BusyError, CannotWriteError, ...).
  if (err instanceof CliError) return { code: err.exitCode, message: err.message, hints: hintsOf(err.hint) };
  // What only a write can fail with, surfacing unnamed (stdout on a full disk: `recall-feed feed > /full/disk/x`).
  if (OUTPUT_FAULTS.has(errnoCode(err) ?? '')) {
    const written = cannotWrite('the output', err);
    if (written instanceof CliError)
      return { code: written.exitCode, message: written.message, hints: hintsOf(written.hint) };
  }
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
  // A run that failed part-way: the cause decides the code; its note and the command that finishes the job follow.
  if (err instanceof ResumableError) {
    const report = describeCause(err.cause);
    return plain({ ...report, hints: [...report.hints, err.note], command: err.resumeCommand }, secrets);
  }
  return plain(describeCause(err), secrets);
}
