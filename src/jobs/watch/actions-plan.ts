// The action flags of a run (--exec, --webhook): checked before anything is sent; they act on what --watch or --state writes.
import { CommandSyntaxError, splitWords } from '../../actions/command-words.js';
import { checkWebhookUrl, WEBHOOK_FORMATS, type WebhookFormat, WebhookUrlError } from '../../actions/webhook-url.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { type EmailFlags, type EmailPlan, planEmail } from '../../runtime/options/email-options.js';
import { parseSeconds } from '../../runtime/options/option-parsers.js';
import type { Settings } from '../../runtime/settings.js';
import { DEFAULT_EXEC_TIMEOUT_S } from './defaults.js';

export interface ActionOptions extends EmailFlags {
  exec?: string;
  execTimeout?: string;
  /** A URL, or `true` for a bare --webhook: the URL from RECALL_FEED_WEBHOOK or the profile. */
  webhook?: string | boolean;
  webhookFormat?: string;
}

/** What a run does for each recall it writes. */
export interface ActionsPlan {
  exec?: { words: string[]; timeoutMs: number };
  webhook?: { url: URL; format: WebhookFormat };
  /** --email: one message per poll or run with everything it wrote. */
  email?: EmailPlan;
}

/** The --webhook URL given, or for a bare --webhook the configured one; checked (https, or loopback). */
export function webhookUrl(given: string | true, settings: Settings): URL {
  const raw = given === true ? settings.webhook : given;
  if (raw === undefined) {
    throw new UsageError(
      '--webhook needs a URL',
      'give it (--webhook https://...), set RECALL_FEED_WEBHOOK, or store it: recall-feed config set webhook',
    );
  }
  try {
    return checkWebhookUrl(raw);
  } catch (err) {
    if (err instanceof WebhookUrlError)
      throw new UsageError(err.message, 'webhook URLs carry a token: only https, or plain http to this machine');
    throw err;
  }
}

/** Undefined when the run has no action; a usage error when an action flag cannot work as given. */
export function planActions(
  opts: ActionOptions,
  acts: { watch: boolean; state: boolean },
  settings: Settings,
): ActionsPlan | undefined {
  const webhook = opts.webhook === undefined || opts.webhook === false ? undefined : opts.webhook;
  if (opts.execTimeout !== undefined && opts.exec === undefined)
    throw new UsageError('--exec-timeout works with --exec');
  if (opts.webhookFormat !== undefined && webhook === undefined)
    throw new UsageError('--webhook-format works with --webhook');
  const email = planEmail(opts, settings);
  if (opts.exec === undefined && webhook === undefined && email === undefined) return undefined;
  const flag = opts.exec !== undefined ? '--exec' : webhook !== undefined ? '--webhook' : '--email';
  if (!acts.watch && !acts.state) {
    throw new UsageError(
      `${flag} acts on new recalls: it works with --watch or --state`,
      `e.g. recall-feed feed --watch ${flag} ...`,
    );
  }
  const plan: ActionsPlan = email ? { email } : {};
  if (opts.exec !== undefined) {
    try {
      plan.exec = {
        words: splitWords(opts.exec),
        timeoutMs: parseSeconds(opts.execTimeout, '--exec-timeout', 0, true) ?? DEFAULT_EXEC_TIMEOUT_S * 1000,
      };
    } catch (err) {
      if (err instanceof CommandSyntaxError)
        throw new UsageError(
          err.message,
          'quote as in a shell: \'single\' or "double"; nothing is expanded; {field}s fill arguments, never the program',
        );
      throw err;
    }
  }
  if (webhook !== undefined) {
    const format = (opts.webhookFormat ?? 'json').trim().toLowerCase();
    if (!(WEBHOOK_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(
        `--webhook-format must be one of ${WEBHOOK_FORMATS.join(', ')}, not '${opts.webhookFormat}'`,
      );
    }
    plan.webhook = { url: webhookUrl(webhook, settings), format: format as WebhookFormat };
  }
  return plan;
}
