// `feed --watch`: polls again and again, writing each new recall once, oldest first; survives faults, ends on refusals.
import { BOUNDS } from '../../api/constants.js';
import { groupDigits } from '../../output/numbers.js';
import { FilterCoverage } from '../../filters/filter-coverage.js';
import { compileFilter } from '../../filters/record-filter.js';
import { type Context, monotonicClock } from '../../runtime/context.js';
import type { RecordSink } from '../../runtime/files/record-output.js';
import type { ApiSession } from '../../runtime/api-session.js';
import { clock, repeatPolls } from './poll-interval.js';
import { type Deliveries, type DeliveryItem, deliverySummary, openDeliveries } from './deliveries.js';
import { pollNew, remember, windowClock } from './new-records.js';
import { type FeedRecord, pagesOf } from './pages.js';
import type { FeedPlan, FeedPollPlan, WatchPlan } from './plan.js';
import { HOUR_MS, PollWindow } from './poll-window.js';
import { createRecordSink, type PageSink } from './record-sink.js';
import { publishedMs, SeenState } from './seen-state.js';

/** The status line after a poll; a skipped first poll says it printed nothing on purpose. */
export function pollSummary(started: number, fresh: number, skipped: boolean, quota: number | undefined): string {
  const what = skipped ? `${fresh} existing recalls remembered, not printed` : `${fresh} new`;
  const quotaText = quota === undefined ? '' : ` · quota left ${groupDigits(quota)}`;
  return `last poll ${clock(started)} · ${what}${quotaText}`;
}

/** One poll's rows, prepared: the items its actions fire for, and the writing of them. */
export interface PreparedRows {
  items: DeliveryItem[];
  write(): Promise<void>;
  close?(): Promise<void>;
}

/** What a watch writes for each poll's new records, and the items its actions fire for. */
export interface WatchOutput {
  /**
   * The rows to write for these records (the records themselves, or match rows); with `items` (the watch has actions),
   * each with a stable id. `close` drops what was prepared and not written.
   */
  prepare(records: FeedRecord[], want: { items: boolean }): Promise<PreparedRows>;
  end(): Promise<void>;
}

/** `feed --watch`: each new record is written, and acted on, as the API sent it. */
function recordOutput(sink: PageSink): WatchOutput {
  return {
    prepare: async (records) => ({
      items: records.map((record) => ({ id: String(record.id), record })),
      write: () => sink.write(records),
    }),
    end: () => sink.end(),
  };
}

/**
 * One poll of `feed` (the plan's, with this poll's window): the rows prepared (a poll that fails there has remembered nothing), the new records remembered, the state
 * staged, the rows written, then the state put in place. A skipped first poll (feed --skip-existing) prepares nothing:
 * it writes nothing and fires no action.
 */
async function pollOnce(
  feed: Pick<FeedPollPlan, 'params' | 'custom'>,
  session: ApiSession,
  ctx: Context,
  output: WatchOutput,
  state: SeenState,
  print: boolean,
  deliveries: Deliveries | undefined,
  keep: (record: FeedRecord) => boolean,
  quiet?: { started: number; windowMs: number },
) {
  const poll = await pollNew(pagesOf(session, feed), {
    state,
    custom: feed.custom,
    keep,
    flag: '--watch',
    signal: ctx.signal,
  });
  ctx.ops?.counts({ fetched: poll.fetched, new: poll.records.length });
  // Remembered all, written only from `quietBefore` on (a record without a date is written). The cut is on the
  // server's clock when it said it (its window is), else on this machine's: ten minutes more for a clock that runs fast.
  const quietBefore = quiet
    ? windowClock(quiet.started, poll.serverNow) - quiet.windowMs - FIRST_POLL_SLACK_MS
    : undefined;
  const written =
    quietBefore === undefined
      ? poll.records
      : poll.records.filter((r) => publishedMs(r, Number.POSITIVE_INFINITY) >= quietBefore);
  const rows = print ? await output.prepare(written, { items: deliveries !== undefined }) : undefined;
  remember(state, poll.records, ctx.now(), poll.serverNow);
  // Actions fire for what is written.
  if (rows) deliveries?.enqueue(rows.items);
  try {
    await state.stage();
    if (rows) await session.status.around(() => rows.write());
    session.lock?.check();
    await state.commit();
  } catch (err) {
    await state.unstage();
    throw err;
  } finally {
    await rows?.close?.();
  }
  return { ...poll, written: written.length };
}

/** How much further back than its routine window a first poll writes: this machine's clock may run fast. */
const FIRST_POLL_SLACK_MS = 10 * 60_000;

/** `feed --watch`'s output: each new record written as the API sent it, on the run's (stdout) output. */
export function recordsTo(sink: RecordSink, plan: FeedPlan, session: ApiSession): WatchOutput {
  return recordOutput(createRecordSink({ plan, session, sink }));
}

/** Polls until stopped, writing what each poll finds through `output`. */
export async function runWatch(plan: WatchPlan, session: ApiSession, ctx: Context, output: WatchOutput): Promise<void> {
  const state = plan.state ? await SeenState.load(plan.state) : SeenState.memory();
  const { intervalMs, skipExisting, sweepMs } = plan.watch;
  const routineHours = plan.params.hoursAgo ?? BOUNDS.defaultHours;
  const pollWindow = new PollWindow(routineHours, sweepMs);
  const mono = monotonicClock(ctx);
  const deliveries = plan.actions ? await openDeliveries(plan.actions, state, session, ctx) : undefined;
  await session.status.start('first poll…');
  const tooLong = pollWindow.checkInterval(intervalMs);
  if (tooLong) session.status.warn(tooLong);
  let first = true;
  let routinePages = 1;
  // The first poll looks at the whole window: a filter value that matched nothing in it is said once.
  const coverage = new FilterCoverage(plan.filter);
  // Later polls keep the same records without noting which filter values matched: compiled once, not per poll.
  const keepLater = compileFilter(plan.filter);
  try {
    await repeatPolls({
      intervalMs,
      noun: 'poll',
      verb: 'polling',
      session,
      ctx,
      round: async () => {
        const started = ctx.now();
        const at = { wall: started, mono: mono() };
        const skipped = first && skipExisting;
        const keep = first ? coverage.keep : keepLater;
        // Each poll's window: the routine one, the whole window on the first poll and every sweep, or wider to cover a gap.
        const { hours, warning: gap } = pollWindow.next(at);
        if (gap) session.status.warn(gap);
        const feed = { custom: plan.custom, params: { ...plan.params, hoursAgo: hours } };
        // A first poll with nothing remembered writes what is in the routine window, as it always has, and only
        // remembers the rest of the day its sweep reads: the later sweeps then write only what arrives late.
        const quiet =
          first && state.size === 0 && hours > routineHours ? { started, windowMs: routineHours * HOUR_MS } : undefined;
        const poll = await pollOnce(feed, session, ctx, output, state, !skipped, deliveries, keep, quiet);
        pollWindow.succeeded(at, hours);
        if (hours <= routineHours) routinePages = poll.pages;
        if (first) for (const warning of coverage.messages()) session.status.warn(warning);
        // A receiver or command that fails leaves its recalls pending for the next poll; the watch goes on.
        const actions = deliveries ? ` · ${deliverySummary(await deliveries.deliver())}` : '';
        first = false;
        return {
          // What a routine poll costs, for the quota's pace: a sweep's extra pages once an hour are not every poll's.
          requests: hours > routineHours ? routinePages : poll.pages,
          done: (delay) => {
            const quota = session.client.lastRateLimit?.remaining_credits;
            session.status.countdown(
              `${pollSummary(started, skipped ? poll.records.length : poll.written, skipped, quota)}${actions}`,
              delay,
            );
          },
        };
      },
    });
  } finally {
    await output.end();
    await deliveries?.close();
  }
}
