// A plain `feed` run: pages through the window and streams each page to stdout or `-o`; a failure keeps what can be resumed.
import { counted } from '../../output/numbers.js';
import { FilterCoverage } from '../../filters/filter-coverage.js';
import { isEmptyFilter } from '../../filters/record-filter.js';
import type { Context } from '../../runtime/context.js';
import { announceWritten } from '../../runtime/files/write-output.js';
import type { RecordOutput, RecordSink } from '../../runtime/files/record-output.js';
import type { OutputTarget } from '../../runtime/files/file-target.js';
import type { ApiSession } from '../../runtime/api-session.js';
import { keepForResume, type Progress, showable } from './export-failure.js';
import { type Page, pagesOf } from '../watch/pages.js';
import { PaginationError } from '../../api/api-errors.js';
import { NO_NEXT_CURSOR, refusesCursor, refusesIssuedCursor } from '../../api/pagination.js';
import type { FeedPlan } from '../watch/plan.js';
import { continuedCsv, createRecordSink } from '../watch/record-sink.js';
import type { CsvHead } from '../../runtime/files/csv-header.js';
import { summaryLine } from './summary.js';

/**
 * The version of what the fingerprint covers and how the partial is written. Raise it when either changes:
 * a partial of another version is then refused ("written with other options") instead of continued wrongly.
 */
export const FINGERPRINT_VERSION = 2;

/** The options that shape the output file; a --resume with other ones is refused. */
export function fingerprint(plan: FeedPlan): string {
  return JSON.stringify({
    version: FINGERPRINT_VERSION,
    format: plan.format,
    custom: plan.custom,
    columns: plan.columns,
    guard: plan.formulaGuard,
    ...plan.params,
    // Absent when empty, so that partial files of runs without filters keep resuming.
    ...(isEmptyFilter(plan.filter) ? {} : { filter: plan.filter }),
  });
}

/** Writes pages into the target until the window, --max or --no-paginate ends the run. */
async function fill(
  plan: FeedPlan,
  session: ApiSession,
  ctx: Context,
  out: RecordSink,
  progress: Progress,
  head: CsvHead | undefined,
): Promise<void> {
  const { target } = out;
  const sink = createRecordSink({ plan, session, sink: out, head });
  // Notes what each filter value met, to say which matched nothing (a typo) when the pages are done.
  const coverage = new FilterCoverage(plan.filter);
  const keep = coverage.keep;
  const filtered = !isEmptyFilter(plan.filter);
  const resumed = target.resumed;
  // Records that arrived or moved since the partial was written may come again after its cursor:
  // a resume never writes an id the partial already holds.
  const already = resumed && resumed.count > 0 ? await idsWritten(plan, target, head) : undefined;
  // A resumed run whose last page was already written only closes the document.
  if (!resumed || resumed.cursor !== undefined || resumed.count === 0) {
    for await (const page of exportPages(session, plan, progress.cursor, resumed !== undefined)) {
      if (page.restartedAfter !== undefined) session.status.note(restartLine(page.restartedAfter));
      // A page saying more follow, with no cursor to them: refused before it is written (unless it fills --max), as the
      // pager would when asked for the next, so the partial keeps the cursor that fetched it and --resume asks again.
      const kept = filtered ? page.data.filter(keep) : page.data;
      const matching = already ? kept.filter((r) => !already.has(String(r.id))) : kept;
      const enough = plan.max !== undefined && progress.written + matching.length >= plan.max;
      if (plan.paginate && !enough && page.pagination.has_more && page.nextCursor === undefined)
        throw new PaginationError(NO_NEXT_CURSOR);
      progress.last = page;
      progress.fetched += page.data.length;
      const room = plan.max === undefined ? matching.length : plan.max - progress.written;
      await sink.write(matching.slice(0, room));
      progress.written += Math.min(room, matching.length);
      progress.cursor = page.nextCursor;
      const total = page.pagination.total_count;
      session.status.progress(
        filtered
          ? `fetching recalls… ${progress.written} matching of ${progress.fetched} of ${total}`
          : `fetching recalls… ${progress.written} of ${total}`,
      );
      if (plan.max !== undefined && progress.written >= plan.max) break;
      if (!plan.paginate) {
        if (page.nextCursor) session.status.note(nextCursorLine(page.nextCursor));
        break;
      }
      if (ctx.signal.aborted) throw ctx.signal.reason;
    }
  }
  for (const warning of coverage.messages()) session.status.warn(warning);
  await sink.end();
}

/** The --no-paginate line: the cursor as it is, or that it is not shown, never one a terminal line would alter. */
function nextCursorLine(cursor: string): string {
  return showable(cursor)
    ? `next cursor: ${cursor}`
    : 'next cursor not shown: it holds characters a terminal cannot show (control, bidi or line-break characters)';
}

/** Said once on stderr when the window starts over because the API refused a cursor. */
function restartLine(refusal: string): string {
  return `recall-feed: the API refused the cursor (${refusal}); starting over from the first page, skipping the recalls already written`;
}

/**
 * The pages from `cursor` on. A resume's cursor is the one its partial stored, not the user's input: when the API
 * refuses it (expired), the window starts over from its first page, and the ids the partial holds are skipped (fill).
 */
async function* exportPages(
  session: ApiSession,
  plan: FeedPlan,
  cursor: string | undefined,
  resuming: boolean,
): AsyncGenerator<Page> {
  const pages = pagesOf(session, plan, cursor);
  if (!resuming || cursor === undefined) return yield* pages;
  let first: IteratorResult<Page>;
  try {
    first = await pages.next();
  } catch (err) {
    // The partial's cursor is one the API sent (unless it is the --cursor the run was given): refused in any words.
    if (!refusesIssuedCursor(err, cursor, plan.cursor) && !refusesCursor(err, cursor)) throw err;
    let said = false;
    for await (const page of pagesOf(session, plan)) {
      yield said ? page : { ...page, restartedAfter: (err as Error).message };
      said = true;
    }
    return;
  }
  if (first.done) return;
  yield first.value;
  yield* pages;
}

/** The ids the partial a resume continues already holds. */
async function idsWritten(
  plan: FeedPlan,
  target: OutputTarget,
  head: CsvHead | undefined,
): Promise<Set<string> | undefined> {
  if (target.partial === undefined) return undefined;
  const { idsInPartial } = await import('../../runtime/files/partial-ids.js');
  return idsInPartial(target.partial, { format: plan.format, header: head?.header, formulaGuard: plan.formulaGuard });
}

/** `output` was asked for with the plan's append, resume and fingerprint (runFeed). */
export async function runExport(
  plan: FeedPlan,
  session: ApiSession,
  ctx: Context,
  output: RecordOutput,
): Promise<void> {
  const progress: Progress = { written: 0, fetched: 0, cursor: plan.cursor, last: undefined };
  await output.write(
    async (sink) => {
      const { target } = sink;
      if (target.resumed) {
        progress.written = target.resumed.count;
        progress.cursor = target.resumed.cursor;
      }
      // Before any request: rows that could not follow the header of the file continued are refused.
      const head = await continuedCsv(plan, target, session.settings.output ?? '');
      await session.status.start('fetching recalls…');
      await fill(plan, session, ctx, sink, progress, head);
      session.lock?.check();
    },
    (err, target) => keepForResume(err, { session, ctx, target, progress, resumable: output.format.resumable }),
  );
  session.status.stop();
  ctx.ops?.counts({ fetched: progress.fetched });
  if (output.format.forPeople || session.settings.verbose) {
    const fetched = isEmptyFilter(plan.filter) ? undefined : progress.fetched;
    session.status.note(
      summaryLine(progress.written, progress.last, session.client.lastRateLimit, fetched, plan.params),
    );
  }
  announceWritten(session, counted(progress.written, 'recall', 'recalls'));
}
