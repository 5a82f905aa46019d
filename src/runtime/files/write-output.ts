// One way to fill an output: open the target, write, then commit; on failure the caller decides what stays (by default nothing).
import type { ApiSession } from '../api-session.js';
import type { OutputTarget } from './file-target.js';
import { outputFile } from './output-target.js';

/** What to do with a target whose write failed; returns the error to throw. */
export type OnWriteFailure = (err: unknown, target: OutputTarget) => Promise<unknown>;

const discardAll: OnWriteFailure = async (err, target) => {
  await target.discard();
  return err;
};

/**
 * Opens the target, lets `write` fill it, and commits it. When anything fails, `failed` decides
 * what is kept: by default the target is discarded, so the file at the path stays as it was.
 */
export async function writeOutput<T>(
  open: () => Promise<OutputTarget>,
  write: (target: OutputTarget) => Promise<T>,
  failed: OnWriteFailure = discardAll,
): Promise<T> {
  const target = await open();
  let result: T;
  try {
    result = await write(target);
    await target.commit();
  } catch (err) {
    throw await failed(err, target);
  }
  return result;
}

/** What the success lines need of a run: its settings, terminal and status line (an ApiSession's or a Session's). */
type Told = Pick<ApiSession, 'settings' | 'terminal' | 'status'>;

/** Off a terminal (cron) a success says nothing unless -v, so cron mails only problems; warnings and errors always print. */
export function tellsSuccess(session: Told): boolean {
  return session.terminal.stderrIsTTY || session.settings.verbose;
}

/** A run that wrote `-o` ends with one line saying what went where (`wrote 585 recalls to recalls.csv`); `-o -` is stdout. */
export function announceWritten(session: Told, what: string, more = ''): void {
  const file = outputFile(session.settings);
  if (file && tellsSuccess(session)) session.status.note(`wrote ${what} to ${file}${more}`);
}
