// The e-mail flags' values (--email, --smtp-url, --email-from) of feed, match and digest: checked before anything is sent.
import {
  EmailAddressError,
  parseAddresses,
  parseSmtpUrl,
  type SmtpServer,
  SmtpUrlError,
} from '../../actions/email-smtp.js';
import { UsageError } from '../cli-errors.js';
import type { Settings } from '../settings.js';

/** The flags' raw values, as the shell parsed them (src/cli/commands/email-flags.ts declares them). */
export type EmailFlags = { email?: string | undefined; smtpUrl?: string | undefined; emailFrom?: string | undefined };

export interface EmailPlan {
  to: string[];
  from: string;
  server: SmtpServer;
}

function asUsage<T>(fn: () => T, hint: string): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SmtpUrlError || err instanceof EmailAddressError) throw new UsageError(err.message, hint);
    throw err;
  }
}

/** Undefined without --email; a usage error when the server or the sender is missing or malformed. */
export function planEmail(flags: EmailFlags, settings: Settings): EmailPlan | undefined {
  if (flags.email === undefined) {
    const given =
      flags.smtpUrl !== undefined ? '--smtp-url' : flags.emailFrom !== undefined ? '--email-from' : undefined;
    if (given) throw new UsageError(`${given} works with --email`);
    return undefined;
  }
  const to = asUsage(() => parseAddresses(flags.email as string, '--email'), 'example: --email compliance@example.com');
  const rawServer = flags.smtpUrl ?? settings.smtpUrl;
  if (rawServer === undefined || rawServer.trim() === '') {
    throw new UsageError(
      '--email needs an SMTP server',
      'give --smtp-url, set RECALL_FEED_SMTP_URL, or store it: recall-feed config set smtp-url (read from stdin)',
    );
  }
  const server = asUsage(() => parseSmtpUrl(rawServer), 'example: smtps://user:password@smtp.example.com:465');
  const rawFrom = flags.emailFrom ?? settings.emailFrom;
  if (rawFrom === undefined) {
    throw new UsageError(
      '--email needs a sender address',
      'give --email-from recalls@example.com, or store it: recall-feed config set email-from recalls@example.com',
    );
  }
  const from = asUsage(() => parseAddresses(rawFrom, '--email-from'), 'one address, e.g. recalls@example.com');
  if (from.length !== 1) throw new UsageError('--email-from takes one address');
  return { to, from: from[0] as string, server };
}
