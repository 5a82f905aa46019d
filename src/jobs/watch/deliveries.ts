import { DEFAULT_PASS_BUDGET_MS, DeliveryQueue, type DeliveryReport } from '../../actions/delivery-queue.js';
import { maskWebhookUrl } from '../../actions/webhook-url.js';
import { KILL_GRACE_MS } from '../../actions/exec-action.js';
import { type Context, monotonicClock } from '../../runtime/context.js';
import type { ApiSession } from '../../runtime/api-session.js';
import type { ActionsPlan } from './plan.js';
import { buildActions } from './build-actions.js';
import type { SeenState } from './seen-state.js';

/** One thing an action fires for: a record written, or a match row; its id is stable across runs. */
export interface DeliveryItem {
  id: string;
  record: Record<string, unknown>;
}

export interface Deliveries {
  /** Queues items just written; saved with the state they are remembered in, so none is lost to a crash. */
  enqueue(items: readonly DeliveryItem[]): void;
  /** Runs every action still owed, oldest first; the state is saved after each success and failure. */
  deliver(): Promise<DeliveryReport>;
  close(): Promise<void>;
}

/** `actions: 3 delivered · 1 pending · 2 failed attempts` for the status line and summary. */
export function deliverySummary(report: DeliveryReport): string {
  const attempts = report.failed === 1 ? 'attempt' : 'attempts';
  const givenUp = report.givenUp > 0 ? ` · ${report.givenUp} given up` : '';
  return `actions: ${report.delivered} delivered · ${report.pending} pending${givenUp} · ${report.failed} failed ${attempts}`;
}

/** `5 recalls stay pending for the next run`: what a cut-short pass of feed's leaves. */
function pendingForNextRun(pending: number): string {
  return `${pending} ${pending === 1 ? 'recall stays' : 'recalls stay'} pending for the next run`;
}

/**
 * The one warning for a pass cut short, or undefined when it went through; `waiting` says what is left and where
 * (sync's: in the archive's outbox).
 */
export function cutShortWarning(
  report: Pick<DeliveryReport, 'pending' | 'rested' | 'outOfTime'>,
  budgetMs: number,
  where: string,
  waiting = pendingForNextRun(report.pending),
): string | undefined {
  const why: string[] = [];
  for (const action of report.rested) {
    const who = action === 'webhook' && where !== '' ? `webhook ${where}` : action;
    why.push(`${who} timed out on two recalls in a row`);
  }
  if (report.outOfTime) why.push(`deliveries used the ${Math.round(budgetMs / 1000)} s a run allows them`);
  if (why.length === 0 || report.pending === 0) return undefined;
  return `${why.join(', and ')}: stopped delivering; ${waiting}`;
}

/**
 * What a run stopped (Ctrl-C, SIGTERM) while an action's attempt was under way says: it waits for that attempt, within
 * its timeout, and a second Ctrl-C leaves at once. `later`: where what is then left is delivered from.
 */
export function stopWaitNote(plan: ActionsPlan, session: ApiSession, later: string): (action: string) => void {
  return (action) => {
    // exec: its timeout, then the 2 s its group is given after SIGTERM; an e-mail: --timeout bounds each SMTP step.
    const ms = action === 'exec' ? (plan.exec?.timeoutMs ?? 0) + KILL_GRACE_MS : session.settings.timeoutMs;
    const within = `${action === 'email' ? 'each of its steps ' : ''}within ${Math.ceil(ms / 1000)} s`;
    session.status.note(
      `stopping once the ${action} delivery under way ends (${within}); Ctrl-C again stops now, and ${later}`,
    );
  };
}

/** `recall 123`, or for a match row (`123:4`) `recall 123, catalogue row 4`. */
function describe(id: string): string {
  const [recall, row] = id.split(':');
  return row === undefined ? `recall ${recall}` : `recall ${recall}, catalogue row ${row}`;
}

export async function openDeliveries(
  plan: ActionsPlan,
  state: SeenState,
  session: ApiSession,
  ctx: Context,
): Promise<Deliveries> {
  const { actions, batches: batchActions, close } = buildActions(plan, session, ctx);
  const where = plan.webhook ? maskWebhookUrl(plan.webhook.url) : '';
  const queue = new DeliveryQueue(
    {
      actions,
      batchActions,
      sleep: ctx.sleep,
      signal: ctx.signal,
      onStopDuring: stopWaitNote(plan, session, 'that recall then stays pending for the next run'),
      persist: async () => {
        state.setDeliveries(queue.snapshot());
        await state.stage();
        await state.commit();
      },
      // The pass's time budget, on the monotonic clock: a wall clock stepped back would stretch it by the step.
      now: monotonicClock(ctx),
      // Error text can hold what a receiver or a record said: the status reporter prints it without control codes.
      onFailure: (d, action, error) =>
        session.status.warn(`${action} failed for ${describe(d.id)}: ${error}; it stays pending`),
      onBatchFailure: (ds, action, error) =>
        session.status.warn(
          `${action} failed for ${ds.length === 1 ? describe(ds[0]!.id) : `${ds.length} pending items`}: ${error}; ${ds.length === 1 ? 'it stays' : 'they stay'} pending`,
        ),
      onGiveUp: (d, action, error) =>
        session.status.warn(
          `${action} given up for ${describe(d.id)}: ${error}; it can never succeed for this record, so it will not be retried`,
        ),
      onSuccess: (d, action) => {
        if (session.settings.verbose)
          session.status.note(`${action}${action === 'webhook' ? ` ${where}` : ''}: ${describe(d.id)} delivered`);
      },
    },
    state.deliveries,
  );
  return {
    enqueue(items) {
      // Nothing new keeps the state unchanged, so a quiet poll writes no file.
      if (items.length === 0) return;
      for (const item of items) queue.add(item.id, item.record);
      state.setDeliveries(queue.snapshot());
    },
    async deliver() {
      const report = await queue.deliver();
      ctx.ops?.counts({ pending: report.pending, failed: report.failed });
      const warning = cutShortWarning(report, DEFAULT_PASS_BUDGET_MS, where);
      if (warning !== undefined) session.status.warn(warning);
      return report;
    },
    async close() {
      await close();
    },
  };
}
