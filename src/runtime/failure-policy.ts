// What a failed run does next, decided by the kind of error (never by its exit code): resume it, or end a watch.
import { isRefusal, isTransient } from '../api/retry.js';
import { ConfigValueError } from './config/config-errors.js';
import {
  BusyError,
  CannotWriteError,
  InterruptedError,
  MissingApiKeyError,
  UnhealthyError,
  UsageError,
} from './cli-errors.js';

/** Ctrl-C, SIGTERM or SIGHUP (the context's signal reason), or an abort that surfaced through a library. */
export function isInterrupt(err: unknown): boolean {
  return err instanceof InterruptedError || (err instanceof Error && err.name === 'AbortError');
}

/** Worth finishing later from where it stopped: interrupts, rate limits, an unavailable API, a broken answer. */
export function isResumable(err: unknown): boolean {
  return isInterrupt(err) || isTransient(err) || err instanceof UnhealthyError;
}

/** The reader of stdout went away (`recall-feed feed --watch | head`): the normal way to say "enough". */
export function isClosedPipe(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'EPIPE';
}

/**
 * No later poll can fix it, so a watch ends with the error's own exit code: the API refused the request,
 * the user's input or key is wrong, or the run cannot keep its state or output.
 */
export function endsWatch(err: unknown): boolean {
  return (
    isClosedPipe(err) ||
    isRefusal(err) ||
    err instanceof UsageError ||
    err instanceof ConfigValueError ||
    err instanceof MissingApiKeyError ||
    err instanceof CannotWriteError ||
    err instanceof BusyError
  );
}
