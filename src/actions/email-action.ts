// --email: one message per poll or run holding every recall (or match row) still owed one; a batch action of the delivery queue.
import type { AttemptResult } from './action.js';
import type { BatchAction, BatchResult } from './batch-action.js';
import { alertMail } from './email-message.js';
import { sendMail } from './email-send.js';
import type { SmtpServer } from './email-smtp.js';

export interface EmailActionOptions {
  server: SmtpServer;
  from: string;
  to: readonly string[];
  timeoutMs: number;
  now: () => number;
}

/**
 * The batch's outcome from each record's: one they all share, or the first failure (one that a retry may help when
 * there is one: `refused` only when every failing record was refused for good) with `each`.
 */
function overall(each: readonly AttemptResult[]): BatchResult {
  const failing = each.filter((r) => !r.ok);
  if (failing.length === 0) return { ok: true };
  if (each.every((r) => r === failing[0])) return failing[0]!;
  return { ...(failing.find((r) => !r.refused) ?? failing[0]!), each };
}

export function emailAction(opts: EmailActionOptions): BatchAction {
  return {
    name: 'email',
    async attemptAll(records, { signal, changes = [], beforePart } = {}): Promise<BatchResult> {
      // Match rows (match --watch) carry `level` and `recall_id`; recalls do not.
      const kind = records.every((r) => 'level' in r && 'recall_id' in r) ? 'matches' : 'recalls';
      const each: AttemptResult[] = [];
      const untried = (from: number, to: number, error: string) => {
        for (let i = from; i < to; i++) each.push({ ok: false, error });
      };
      /**
       * Records `from` to `to` in one message. One the server refuses as too large goes again as two halves, each
       * split again if need be: a batch too large as a whole, or one record too large alone, never holds back the rest.
       */
      const send = async (from: number, to: number, part = false): Promise<void> => {
        if (part && signal?.aborted) return untried(from, to, 'interrupted');
        if (part && beforePart && !(await beforePart(from, to))) return untried(from, to, 'not tried');
        const content = alertMail(records.slice(from, to), kind, opts.now(), changes.slice(from, to));
        const { refused, tooLarge, ...result } = await sendMail(
          opts.server,
          { from: opts.from, to: opts.to, ...content },
          { timeoutMs: opts.timeoutMs, signal },
        );
        if (tooLarge && to - from > 1) {
          const half = from + Math.ceil((to - from) / 2);
          await send(from, half, true);
          await send(half, to, true);
          return;
        }
        // Any other refusal may pass when tried again (an alert's 5xx is retried); a lone record too large would not.
        const outcome: AttemptResult = tooLarge ? { ...result, refused } : result;
        for (let i = from; i < to; i++) each.push(outcome);
      };
      await send(0, records.length);
      return overall(each);
    },
  };
}
