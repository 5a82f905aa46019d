// --email: one message per poll or run holding every recall (or match row) still owed one; a batch action of the delivery queue.
import type { AttemptResult } from './action.js';
import type { BatchAction } from './delivery-queue.js';
import { type AlertKind, alertMail } from './email-message.js';
import { sendMail } from './email-send.js';
import type { SmtpServer } from './email-smtp.js';

export interface EmailActionOptions {
  server: SmtpServer;
  from: string;
  to: readonly string[];
  /** What the records are; by default match rows (with `level` and `recall_id`) are told from recalls by their fields. */
  kind?: AlertKind;
  timeoutMs: number;
  now: () => number;
}

export function emailAction(opts: EmailActionOptions): BatchAction {
  return {
    name: 'email',
    async attemptAll(records, signal): Promise<AttemptResult> {
      const kind = opts.kind ?? (records.every((r) => 'level' in r && 'recall_id' in r) ? 'matches' : 'recalls');
      const content = alertMail(records, kind, opts.now());
      const { refused: _r, ...result } = await sendMail(
        opts.server,
        { from: opts.from, to: opts.to, ...content },
        { timeoutMs: opts.timeoutMs, signal },
      );
      return result;
    },
  };
}
