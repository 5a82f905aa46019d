// Sends a digest: one e-mail (text and HTML parts) and/or one webhook post (the JSON, a Slack text or a Teams card), retried, else exit 11.
import type { AttemptResult } from '../../actions/action.js';
import { sendMail, type SendResult } from '../../actions/email-send.js';
import type { WebhookFormat } from '../../actions/webhook-url.js';
import { finishUnderStop } from '../../actions/under-way.js';
import { backoffMs } from '../../api/retry.js';
import type { Context } from '../../runtime/context.js';
import { NotDeliveredError } from '../../runtime/cli-errors.js';
import type { EmailPlan } from '../../runtime/options/email-options.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { digestCsv, digestCsvName } from '../../output/digest/digest-csv.js';
import { digestHtml } from '../../output/digest/digest-html.js';
import { digestText } from '../../output/digest/digest-text.js';
import { type Digest, digestSubject } from '../../output/digest/digest-view.js';

/** The most an e-mail's HTML (and text) part holds, in bytes: under the ~102 KB at which Gmail clips a message. */
export const EMAIL_PART_BYTES = 100_000;

/** Attempts per delivery: a server that is briefly away gets two more chances, a refusal none. */
const ATTEMPTS = 3;

/**
 * Tries a delivery up to three times. A stop (Ctrl-C, SIGTERM) starts no new attempt, and lets the one under way end
 * within its timeout (src/actions/under-way.ts): the receiver may have the digest already, and a --since last digest
 * then records its end, so the next one does not send the period again. `stepwise`: --timeout bounds each SMTP step.
 */
async function withRetries(
  attempt: () => Promise<SendResult>,
  what: string,
  hint: string,
  status: StatusReporter,
  ctx: Context,
  bound: { timeoutMs: number; stepwise?: boolean },
): Promise<void> {
  let last: SendResult = { ok: false };
  const onStop = () =>
    status.note(
      `stopping once ${what} under way ends (${bound.stepwise ? 'each of its steps ' : ''}within ${Math.ceil(bound.timeoutMs / 1000)} s); Ctrl-C again stops now`,
    );
  for (let n = 0; n < ATTEMPTS; n++) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    last = await finishUnderStop(attempt, ctx.signal, onStop);
    if (last.ok) return;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (last.refused || n === ATTEMPTS - 1) break;
    status.warn(`${what} failed: ${last.error}; trying again`);
    await ctx.sleep(last.retryAfterMs ?? backoffMs(n, Math.random, 1000, 10_000), ctx.signal);
  }
  throw new NotDeliveredError(`${what} was not delivered: ${last.error ?? 'failed'}`, hint);
}

export async function emailDigest(d: Digest, plan: EmailPlan, timeoutMs: number, status: StatusReporter, ctx: Context) {
  // Gmail clips a body over about 102 KB: each part keeps under 100 KB as sent (quoted-printable, which the budget
  // measures), listing what fits; the attachment lists every recall of the period and the products each touches.
  const attachment = digestCsvName(d);
  const message = {
    from: plan.from,
    to: plan.to,
    subject: digestSubject(d),
    text: digestText(d, 72, { maxBytes: EMAIL_PART_BYTES, attachment }),
    html: digestHtml(d, { maxBytes: EMAIL_PART_BYTES, attachment }),
    attachments: [{ filename: attachment, content: digestCsv(d), contentType: 'text/csv; charset=utf-8' }],
    quotedPrintable: true,
  };
  await withRetries(
    () => sendMail(plan.server, message, { timeoutMs }),
    `the digest e-mail to ${plan.to.join(', ')}`,
    `check the server (${plan.server.shown}), the sender and the recipients; recall-feed config set smtp-url stores the server`,
    status,
    ctx,
    { timeoutMs, stepwise: true },
  );
}

export async function postDigest(
  d: Digest,
  hook: { url: URL; format: WebhookFormat },
  emailedTo: readonly string[] | undefined,
  timeoutMs: number,
  status: StatusReporter,
  ctx: Context,
) {
  const { HttpAgent } = await import('../../api/http-agent.js');
  const { webhookAction } = await import('../../actions/webhook-action.js');
  const { AS_GIVEN, maskWebhookUrl } = await import('../../actions/webhook-url.js');
  const { proxyFromEnv } = await import('../../runtime/api-session.js');
  const agent = new HttpAgent({ proxy: proxyFromEnv(ctx.env), timeoutMs });
  // The payload is built here; the action posts it as it is.
  const { slackDigest, teamsDigest } = await import('../../output/digest/digest-chat.js');
  const payload =
    hook.format === 'slack' ? slackDigest(d, emailedTo) : hook.format === 'teams' ? teamsDigest(d, emailedTo) : d;
  const post = webhookAction({ url: hook.url, format: AS_GIVEN, timeoutMs, agent, now: ctx.now });
  try {
    await withRetries(
      async (): Promise<AttemptResult> => post.attempt(payload as unknown as Record<string, unknown>, undefined),
      `the digest post to ${maskWebhookUrl(hook.url)}`,
      'check the webhook URL (recall-feed config set webhook) and that the receiver accepts this --webhook-format',
      status,
      ctx,
      { timeoutMs },
    );
  } finally {
    await agent.close();
  }
}
