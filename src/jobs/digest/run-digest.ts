// Runs `digest`: collects the period, writes it (-o atomically) as text, markdown, html or json, then mails and posts it.
import { DIGEST_FORMATS, type DigestFormat, formatOfKindExtension } from '../../output/format-kinds.js';
import path from 'node:path';
import type { RecordFilter } from '../../filters/record-filter.js';
import { jsonText } from '../../output/control-escapes.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import { webhookUrl } from '../watch/actions-plan.js';
import { type EmailFlags, planEmail } from '../../runtime/options/email-options.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { Session } from '../../runtime/session.js';
import type { Settings } from '../../runtime/settings.js';
import { WEBHOOK_FORMATS, type WebhookFormat } from '../../actions/webhook-url.js';
import { collectDigest } from './collect-digest.js';
import type { Digest } from '../../output/digest/digest-view.js';

export type { DigestFormat } from '../../output/format-kinds.js';

export interface DigestPlan {
  db: DbChoice;
  fromMs: number;
  toMs: number;
  sources: string[] | undefined;
  filter: RecordFilter;
  catalog: { file: string; map: ColumnMap; key?: string } | undefined;
  /** -f as given; undefined: by the -o extension, else text. */
  format: DigestFormat | undefined;
  email: EmailFlags;
  webhook: string | true | undefined;
  webhookFormat: string | undefined;
}

function chooseDigestFormat(plan: DigestPlan, settings: Settings): DigestFormat {
  if (plan.format) return plan.format;
  const out = settings.output && settings.output !== '-' ? settings.output : undefined;
  const byExtension = out ? formatOfKindExtension('digest', DIGEST_FORMATS, path.extname(out)) : undefined;
  return byExtension ?? 'text';
}

function planWebhook(plan: DigestPlan, settings: Settings): { url: URL; format: WebhookFormat } | undefined {
  if (plan.webhook === undefined) return undefined;
  const format = (plan.webhookFormat ?? 'json').trim().toLowerCase();
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--webhook-format must be one of ${WEBHOOK_FORMATS.join(', ')}, not '${plan.webhookFormat}'`);
  return { url: webhookUrl(plan.webhook, settings), format: format as WebhookFormat };
}

async function render(d: Digest, format: DigestFormat, width: number): Promise<string> {
  if (format === 'json') return `${jsonText(d)}\n`;
  if (format === 'html') return (await import('../../output/digest/digest-html.js')).digestHtml(d);
  const { digestMarkdown, digestText } = await import('../../output/digest/digest-text.js');
  return format === 'markdown' ? digestMarkdown(d) : digestText(d, width);
}

export async function runDigest(plan: DigestPlan, session: Session): Promise<void> {
  const { ctx, settings, status } = session;
  // The archive named, then every flag checked, before the archive is read or anything is sent.
  const where = session.archive(plan.db);
  const email = planEmail(plan.email, settings);
  const hook = planWebhook(plan, settings);
  // Sent somewhere, it is printed only when asked for: cron would otherwise mail it a second time.
  const print = (!email && !hook) || plan.format !== undefined || settings.output !== undefined;
  const output = await session.output({ format: chooseDigestFormat(plan, settings) });
  const digest = await collectDigest(plan, where, session);
  ctx.ops?.counts({ new: digest.counts.new, updated: digest.counts.updated });
  if (print) {
    const text = await render(digest, output.format, session.terminal.columns);
    await output.write((sink) => sink.text(text));
  }
  const { emailDigest, postDigest } = await import('./deliver-digest.js');
  if (email) {
    await emailDigest(digest, email, settings.timeoutMs, status, ctx);
    if (settings.verbose) status.note(`digest e-mailed to ${email.to.join(', ')} via ${email.server.shown}`);
  }
  if (hook) await postDigest(digest, hook, email?.to, settings.timeoutMs, status, ctx);
}
