// `feed --state` without `--watch` (cron): one poll, only the recalls not written before; the output goes in place first, then the state.
import { counted } from '../../output/numbers.js';
import { FilterCoverage } from '../../filters/filter-coverage.js';
import { isEmptyFilter } from '../../filters/record-filter.js';
import type { Context } from '../../runtime/context.js';
import { announceWritten, tellsSuccess } from '../../runtime/files/write-output.js';
import type { RecordOutput } from '../../runtime/files/record-output.js';
import type { ApiSession } from '../../runtime/api-session.js';
import { type Deliveries, deliverySummary, openDeliveries } from '../watch/deliveries.js';
import { pollNew, remember } from '../watch/new-records.js';
import { pagesOf } from '../watch/pages.js';
import type { FeedPlan } from '../watch/plan.js';
import { continuedCsv, createRecordSink } from '../watch/record-sink.js';
import { SeenState } from '../watch/seen-state.js';

/** `output` was asked for with the plan's --append (runFeed). */
export async function runOnce(
  plan: FeedPlan & { state: string },
  session: ApiSession,
  ctx: Context,
  output: RecordOutput,
): Promise<void> {
  // Before any request: a state that cannot be read or written stops the run here.
  const state = await SeenState.load(plan.state);
  const deliveries = plan.actions ? await openDeliveries(plan.actions, state, session, ctx) : undefined;
  try {
    await pollAndWrite(plan, session, ctx, output, state, deliveries);
  } finally {
    await deliveries?.close();
  }
}

async function pollAndWrite(
  plan: FeedPlan & { state: string },
  session: ApiSession,
  ctx: Context,
  output: RecordOutput,
  state: SeenState,
  deliveries: Deliveries | undefined,
): Promise<void> {
  // Says which filter values matched nothing in the window (a typo), once the poll is done.
  const coverage = new FilterCoverage(plan.filter);
  // The rows appended (--append) are cut back by the next run unless the state that covers them is in place.
  let appended: (() => Promise<void>) | undefined;
  const poll = await output.write(
    async (out) => {
      const { target } = out;
      // Before any request: rows that could not follow the header of the file appended to are refused.
      const head = await continuedCsv(plan, target, session.settings.output ?? '');
      const poll = await pollNew(pagesOf(session, plan), {
        state,
        max: plan.max,
        custom: plan.custom,
        keep: coverage.keep,
        flag: '--state',
        signal: ctx.signal,
      });
      ctx.ops?.counts({ fetched: poll.fetched, new: poll.records.length });
      remember(state, poll.records, ctx.now(), poll.serverNow);
      // Owed in the same state that marks them written: a crash can repeat an action, never skip one.
      deliveries?.enqueue(poll.records.map((record) => ({ id: String(record.id), record })));
      const sink = createRecordSink({ plan, session, sink: out, head });
      // Staged before the records are printed or the file is committed: a disk that cannot take
      // the state fails the run while the output is still as it was.
      await state.stage();
      const staged = state.stagedCommit;
      if (staged) appended = target.appendsFor?.(staged);
      await sink.write(poll.records);
      await sink.end();
      session.lock?.check();
      return poll;
    },
    async (err, target) => {
      await target.discard();
      await state.unstage();
      return err;
    },
  );
  await state.commit();
  await appended?.();
  for (const warning of coverage.messages()) session.status.warn(warning);
  const actions = deliveries ? ` · ${deliverySummary(await deliveries.deliver())}` : '';
  // Interrupted while delivering: what was delivered is saved (the queue saves as it goes); the run ends as interrupted.
  if (ctx.signal.aborted) throw ctx.signal.reason;
  const remembered = `${counted(state.size, 'id', 'ids')} remembered in ${plan.state}${actions}`;
  const fresh = poll.records.length;
  const what = isEmptyFilter(plan.filter)
    ? counted(fresh, 'new recall', 'new recalls')
    : `${counted(fresh, 'new matching recall', 'new matching recalls')} (of ${poll.fetched} fetched)`;
  if (output.toFile) announceWritten(session, what, `; ${remembered}`);
  else if (tellsSuccess(session)) session.status.note(`${what}; ${remembered}`);
}
