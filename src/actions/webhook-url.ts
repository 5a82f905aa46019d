// Webhook URLs are secrets (they carry the channel's token): checked once, and shown only masked.
import { isLoopbackHost } from '../api/loopback.js';

/** What a webhook receives: the record as the API sent it, a Slack-style {"text": ...} message, or a Teams card. */
export type WebhookFormat = 'json' | 'slack' | 'teams';
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ['json', 'slack', 'teams'];
/** Posts the payload as it is: for a caller that shaped it already (the digest's Slack text, Teams card). */
export const AS_GIVEN: WebhookFormat = 'json';

export class WebhookUrlError extends Error {
  override name = 'WebhookUrlError';
}

/**
 * https only, except to loopback; never credentials in a URL we would have to mask anyway. `source` names where
 * the value came from in the message: `--webhook`, `RECALL_FEED_WEBHOOK` or "the profile's webhook".
 */
export function checkWebhookUrl(raw: string, source = '--webhook'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError(`${source} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new WebhookUrlError(`${source} must be an https URL, not ${url.protocol}`);
  }
  // Nothing would send them: a receiver that wants credentials keeps its token in the path.
  if (url.username !== '' || url.password !== '') {
    throw new WebhookUrlError(`${source} must not carry user:password@ (the receiver would never see them)`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    const from = source === '--webhook' ? '' : ` (${source})`;
    throw new WebhookUrlError(`refusing to send recalls to a plain http webhook on ${url.hostname}${from}: use https`);
  }
  return url;
}

/** `https://hooks.example.com/…`: the host says where, the path (the token) stays hidden. */
export function maskWebhookUrl(url: URL | string): string {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '(webhook)';
  }
}
