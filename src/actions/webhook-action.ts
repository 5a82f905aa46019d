// --webhook: POSTs each recall as JSON (as the API sent it), as a Slack-style {"text": ...} message, or as a Teams card.
import type { HttpAgent } from '../api/http-agent.js';
import { TimeoutError } from '../api/api-errors.js';
import { header } from '../api/answer-headers.js';
import { retryAfterAt } from '../api/retry.js';
import { send } from '../api/transport.js';
import type { Action, AttemptResult } from './action.js';
import { describeItem } from '../output/recall-text.js';
import { shorten } from '../output/shorten.js';
import { escapeSlack } from '../output/slack-text.js';
import { teamsRecallMessage } from '../output/teams-card.js';
import { maskWebhookUrl, type WebhookFormat } from './webhook-url.js';

export interface WebhookActionOptions {
  url: URL;
  format: WebhookFormat;
  timeoutMs: number;
  agent: HttpAgent;
  userAgent?: string;
  now?: () => number;
}

/** Title, severity, brand, source and link (a recall's words, `describeItem`): what Slack, Mattermost and similar show. */
export function slackMessage(record: Record<string, unknown>): { text: string } {
  const d = describeItem(record);
  // Each value cut before escaping, so an entity is never cut in half.
  const facts = d.list
    .filter((f) => f.label !== undefined)
    .map((f) => `${f.label}: ${escapeSlack(shorten(f.value, 200))}`)
    .join(' · ');
  // `<`, `>` and `|` end Slack's link (`<url|text>`): percent-encoded, as a browser reads them, never dropped.
  const url = d.link ? `\n<${d.link.replace(/[<>|\s]/g, (c) => encodeURIComponent(c))}>` : '';
  return { text: `*${escapeSlack(shorten(d.title, 500))}*${facts ? `\n${facts}` : ''}${url}` };
}

/** An error message with the URL's path (its token) cut out. */
function hidePath(message: string, url: URL): string {
  return message.split(url.href).join(maskWebhookUrl(url)).split(url.pathname).join('/…');
}

export function webhookAction(opts: WebhookActionOptions): Action {
  const where = maskWebhookUrl(opts.url);
  return {
    name: 'webhook',
    async attempt(record, signal): Promise<AttemptResult> {
      const body = JSON.stringify(
        opts.format === 'slack' ? slackMessage(record) : opts.format === 'teams' ? teamsRecallMessage(record) : record,
      );
      try {
        const res = await send(opts.url, {
          agent: opts.agent,
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'user-agent': opts.userAgent ?? 'recall-feed' },
          timeoutMs: opts.timeoutMs,
          maxBytes: 0,
          discardBody: true,
          signal,
        });
        if (res.status >= 200 && res.status < 300) return { ok: true };
        const result: AttemptResult = { ok: false, error: `${where} answered HTTP ${res.status}` };
        // A 4xx refuses the post itself, and says so again if sent again; 408 (no request in time) and 429 do not.
        if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) result.refused = true;
        if (res.status === 429) {
          // The receiver asks to be left alone for a while: seconds or a date, read as the client reads them.
          const now = (opts.now ?? Date.now)();
          const at = retryAfterAt(header(res.headers, 'retry-after'), now);
          if (at !== undefined) result.retryAfterMs = Math.max(0, at - now);
        }
        return result;
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        // The transport's messages name the host only; a stray path (the URL's token) is cut out all the same.
        const why =
          err instanceof TimeoutError ? 'no answer within the timeout' : hidePath((err as Error).message, opts.url);
        if (err instanceof TimeoutError) return { ok: false, timedOut: true, error: `${where}: ${why}` };
        return { ok: false, error: `${where}: ${why}` };
      }
    },
  };
}
