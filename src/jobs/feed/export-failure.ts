// What a failed export leaves behind: a partial file and the command that finishes it, or no trace at all.
import { PaginationError } from '../../api/api-errors.js';
import { plainLine } from '../../output/control-escapes.js';
import { counted } from '../../output/numbers.js';
import type { Context } from '../../runtime/context.js';
import { ResumableError } from '../../runtime/cli-errors.js';
import { isResumable } from '../../runtime/failure-policy.js';
import type { OutputTarget } from '../../runtime/files/file-target.js';

import type { ApiSession } from '../../runtime/api-session.js';
import type { Page } from '../watch/pages.js';
import { resumeCommand } from './resume-command.js';

/** How far an export got: records in the output (a resumed partial's included) and the cursor right after them. */
export interface Progress {
  written: number;
  /** Records the API sent, before the record filters. */
  fetched: number;
  cursor: string | undefined;
  last: Page | undefined;
}

export interface FailedExport {
  session: ApiSession;
  ctx: Context;
  target: OutputTarget;
  progress: Progress;
  /** The format can be continued from its partial (csv, json, jsonl); a parquet file cannot. */
  resumable: boolean;
}

/** The cursor prints as it is: every message line goes through plainLine, which would drop or replace characters. */
export function showable(cursor: string): boolean {
  return plainLine(cursor) === cursor;
}

/**
 * Keeps what can be resumed and says how; anything else leaves no trace. A run that was itself a
 * `--resume` always keeps its partial, whatever the failure (a wrong key, an expired cursor): only
 * a completed resume removes it. A cursor the API sent and then refused, also after starting over (exit 7),
 * keeps the partial too; its --resume starts the window over, skipping the records the partial holds.
 * Returns the error to throw.
 */
export async function keepForResume(err: unknown, f: FailedExport): Promise<unknown> {
  f.session.status.stop();
  // A partial that cannot be continued is worth nothing: the target is unchanged, and the run starts over.
  if ((!isResumable(err) || (!f.resumable && f.target.kind === 'file')) && f.target.resumed === undefined) {
    await f.target.discard();
    return err;
  }
  const argv = f.ctx.argv ?? [];
  const { written, cursor } = f.progress;
  const keyNote =
    f.session.settings.apiKeySource === 'flag' ? ' (give the key again, e.g. in RECALL_FEED_API_KEY)' : '';
  // Only a file written through `.partial` keeps anything; stdout, a device or a pipe continue at the cursor.
  const kept = await f.target.keep({ cursor, count: written });
  if (kept !== undefined) {
    return new ResumableError(
      err,
      resumeCommand(argv, ['--resume']),
      `${f.session.settings.output} is unchanged; ${counted(kept.count, 'record is', 'records are')} kept in ${kept.partial}. To finish${keyNote}, run:`,
    );
  }
  // A cursor the API refused is no place to continue from: the run is asked for again from the start.
  if (err instanceof PaginationError && err.refusedCursor !== undefined) {
    return new ResumableError(
      err,
      resumeCommand(argv, []),
      `${counted(written, 'record was', 'records were')} written; the API no longer takes the cursor after them. To fetch the window again${keyNote}, run:`,
    );
  }
  // A cursor the printed line would alter (a control, bidi or line-break character) continues nowhere it should.
  if (cursor !== undefined && !showable(cursor)) {
    return new ResumableError(
      err,
      resumeCommand(argv, []),
      `${counted(written, 'record was', 'records were')} written; the cursor after them holds characters a terminal cannot show, so it is not printed (with -o, a failure keeps it in the file's .partial for --resume). To fetch the window again${keyNote}, run:`,
    );
  }
  // One word, so that a cursor starting with `-` is not taken for a flag; resumeCommand shell-quotes it.
  const continueWith = cursor === undefined ? [] : [`--cursor=${cursor}`];
  return new ResumableError(
    err,
    resumeCommand(argv, continueWith),
    `${counted(written, 'record was', 'records were')} written. To continue right after them${keyNote}, run:`,
  );
}
