// The e-mail flags (--email, --smtp-url, --email-from) of feed, sync, match and digest, declared once.
import type { Command, OptionValues } from '@commander-js/extra-typings';

/** `description` says what --email sends, and when. */
export function addEmailOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  description: string,
) {
  return cmd
    .option('--email <to[,to]>', description)
    .option(
      '--smtp-url <url>',
      'SMTP server, smtp://user:pass@host:587 or smtps://… (visible in ps: prefer RECALL_FEED_SMTP_URL or config set smtp-url)',
    )
    .option('--email-from <address>', 'the sender of --email (default: config set email-from)');
}
