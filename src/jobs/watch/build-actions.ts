// The actions a plan names (--exec, --webhook, --email), built once for whichever queue delivers them: feed's and
// match's seen-state queue (deliveries.ts) or sync's outbox (jobs/archive/outbox-delivery.ts).
import type { Action } from '../../actions/action.js';
import { childEnv } from '../../actions/child-env.js';
import type { BatchAction } from '../../actions/delivery-queue.js';
import { emailAction } from '../../actions/email-action.js';
import { execAction } from '../../actions/exec-action.js';
import { webhookAction } from '../../actions/webhook-action.js';
import { HttpAgent } from '../../api/http-agent.js';
import type { Context } from '../../runtime/context.js';
import { proxyFromEnv, type ApiSession } from '../../runtime/api-session.js';
import type { ActionsPlan } from './plan.js';

export interface BuiltActions {
  /** Per-record actions: exec and webhook. */
  actions: Action[];
  /** Actions that take a whole batch: e-mail. */
  batches: BatchAction[];
  /** Closes what the actions hold open (the webhook's agent). */
  close(): Promise<void>;
}

export function buildActions(plan: ActionsPlan, session: ApiSession, ctx: Context): BuiltActions {
  const timeoutMs = session.settings.timeoutMs;
  const actions: Action[] = [];
  const batches: BatchAction[] = [];
  let agent: HttpAgent | undefined;
  if (plan.exec) {
    actions.push(
      execAction({
        words: plan.exec.words,
        timeoutMs: plan.exec.timeoutMs,
        env: childEnv(ctx.env),
        onOutput: (line, record) => session.status.note(`exec[${String(record.id ?? record.recall_id)}]: ${line}`),
      }),
    );
  }
  if (plan.webhook) {
    agent = new HttpAgent({ proxy: proxyFromEnv(ctx.env), timeoutMs });
    actions.push(webhookAction({ url: plan.webhook.url, format: plan.webhook.format, timeoutMs, agent, now: ctx.now }));
  }
  if (plan.email) batches.push(emailAction({ ...plan.email, timeoutMs, now: ctx.now }));
  return { actions, batches, close: async () => agent?.close() };
}
