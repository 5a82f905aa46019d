// The action flags of a run (--exec, --webhook, --email) turned into its ActionsPlan: checked before anything is sent; they act on what --watch, --state or sync writes.
import { CommandSyntaxError, placeholderNames, splitWords } from '../../actions/command-words.js';
import { programProblem } from '../../actions/exec-program.js';
import { nearestNames } from '../../runtime/options/column-names.js';
import { checkWebhookUrl, WEBHOOK_FORMATS, type WebhookFormat, WebhookUrlError } from '../../actions/webhook-url.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { planEmail } from '../../runtime/options/email-options.js';
import type { FeedOptions } from './feed-options.js';
import { parseSeconds } from '../../runtime/options/option-parsers.js';
import type { Settings } from '../../runtime/settings.js';
import { DEFAULT_EXEC_TIMEOUT_S } from '../../jobs/watch/defaults.js';
import type { ActionsPlan } from '../../jobs/watch/plan.js';

/** The action flags, typed by `feed`'s declaration of them (sync and match --watch declare the same names). */
export type ActionOptions = Pick<
  FeedOptions,
  'exec' | 'execTimeout' | 'webhook' | 'webhookFormat' | 'email' | 'smtpUrl' | 'emailFrom'
>;

/** The --webhook URL given, or for a bare --webhook the configured one; checked (https, or loopback). */
export function webhookUrl(given: string | true, settings: Settings): URL {
  const raw = given === true ? settings.webhook : given;
  if (raw === undefined) {
    throw new UsageError(
      '--webhook needs a URL',
      'give it (--webhook https://...), set RECALL_FEED_WEBHOOK, or store it: recall-feed config set webhook',
    );
  }
  // A bare --webhook's URL is the environment's or the profile's: the error names that, not the flag.
  const from = given === true ? settings.webhookFrom : undefined;
  const source = from?.source ?? '--webhook';
  try {
    return checkWebhookUrl(raw, source);
  } catch (err) {
    if (err instanceof WebhookUrlError)
      throw new UsageError(
        err.message,
        from?.from === 'profile'
          ? 'store a good one with `recall-feed config set webhook` (reads it from stdin): only https, or plain http to this machine'
          : 'webhook URLs carry a token: only https, or plain http to this machine',
      );
    throw err;
  }
}

/**
 * Refuses a {placeholder} that is a typo of a field (`{alert_titel}`: did you mean alert_title?), as --columns does:
 * filled with nothing, every time, the action still counted as done. Another name may be a field the API added since.
 */
function checkKnownPlaceholders(names: readonly string[], fields: readonly string[]): void {
  for (const name of names) {
    if (fields.includes(name)) continue;
    const near = nearestNames(name, fields);
    if (near.length > 0)
      throw new UsageError(
        `--exec: {${name}} is no field of a recall, so it would always be empty`,
        `did you mean {${near.join('} or {')}}?`,
      );
  }
}

/** Undefined when the run has no action; a usage error when an action flag cannot work as given. */
export function planActions(
  opts: ActionOptions,
  acts: { watch: boolean; state: boolean },
  settings: Settings,
  env: Readonly<Record<string, string | undefined>>,
  /** The fields each record has (the recall feed's), when known up front: --exec's {placeholders} are checked against them. */
  fields?: readonly string[],
): ActionsPlan | undefined {
  const { webhook } = opts;
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
          err.hint ??
            'quote as in a shell: \'single\' or "double"; nothing is expanded; {field}s fill arguments, never the program',
        );
      throw err;
    }
    // A {field} no record has is filled with nothing, every time, and the action still counts as done.
    if (fields !== undefined) checkKnownPlaceholders(placeholderNames(plan.exec.words), fields);
    const program = plan.exec.words[0] as string;
    const problem = programProblem(program, env.PATH);
    if (problem === 'not found')
      throw new UsageError(
        `--exec: command not found: ${program}`,
        program.includes('/') ? 'check the path' : 'install it, or give its full path (PATH is searched)',
      );
    if (problem === 'not executable')
      throw new UsageError(`--exec: ${program} is not executable`, `make it so: chmod +x ${program}`);
    if (problem === 'unreachable')
      throw new UsageError(
        `--exec: ${program} cannot be looked up: a link loop or a name too long on the way, where the search for it stops`,
        program.includes('/') ? 'check the path' : 'mend PATH, or give the program its full path',
      );
  }
  if (webhook !== undefined) plan.webhook = planWebhook(webhook, opts.webhookFormat, settings);
  return plan;
}

/** --webhook with its --webhook-format (json by default), checked: for the actions and for `digest --webhook`. */
export function planWebhook(
  given: string | true,
  rawFormat: string | undefined,
  settings: Settings,
): { url: URL; format: WebhookFormat } {
  const format = (rawFormat ?? 'json').trim().toLowerCase();
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--webhook-format must be one of ${WEBHOOK_FORMATS.join(', ')}, not '${rawFormat}'`);
  }
  return { url: webhookUrl(given, settings), format: format as WebhookFormat };
}
