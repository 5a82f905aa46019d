// The shell's last step of a `digest` plan: what needs the settings (the format by the -o extension, the e-mail, the webhook).
import path from 'node:path';
import type { DigestPlan } from '../../jobs/digest/run-digest.js';
import { DIGEST_FORMATS, type DigestFormat, formatOfKindExtension } from '../../output/format-kinds.js';
import { type EmailFlags, planEmail } from '../../runtime/options/email-options.js';
import { outputFile } from '../../runtime/files/output-target.js';
import type { Settings } from '../../runtime/settings.js';
import { planWebhook } from './actions-plan.js';

/** A digest's flags checked alone (planDigest); the rest is settled with the settings. */
export interface DigestDraft extends Omit<DigestPlan, 'format' | 'print' | 'email' | 'webhook'> {
  /** -f as given; undefined: by the -o extension, else text. */
  format: DigestFormat | undefined;
  email: EmailFlags;
  webhook: string | true | undefined;
  webhookFormat: string | undefined;
}

function digestFormat(draft: DigestDraft, settings: Settings): DigestFormat {
  if (draft.format) return draft.format;
  const out = outputFile(settings);
  const byExtension = out ? formatOfKindExtension('digest', DIGEST_FORMATS, path.extname(out)) : undefined;
  return byExtension ?? 'text';
}

/** The digest's plan: every flag checked against the settings before the archive is read or anything sent. */
export function settleDigest(draft: DigestDraft, settings: Settings): DigestPlan {
  const { email: emailFlags, webhook: given, webhookFormat, ...rest } = draft;
  const email = planEmail(emailFlags, settings);
  const webhook = given === undefined ? undefined : planWebhook(given, webhookFormat, settings);
  // Sent somewhere, it is printed only when asked for: cron would otherwise mail it a second time.
  const print = (!email && !webhook) || draft.format !== undefined || settings.output !== undefined;
  return { ...rest, format: digestFormat(draft, settings), print, email, webhook };
}
