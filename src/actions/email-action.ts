// --email: one message per poll or run holding every recall (or match row) still owed one; a batch action of the delivery queue.
import type { AttemptResult } from './action.js';
import type { BatchAction } from './delivery-queue.js';
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

export function emailAction(opts: EmailActionOptions): BatchAction {
  return {
    name: 'email',
    async attemptAll(records, signal): Promise<AttemptResult> {
      // Match rows (match --watch) carry `level` and `recall_id`; recalls do not.
      const kind = records.every((r) => 'level' in r && 'recall_id' in r) ? 'matches' : 'recalls';
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
