// Runs `digest`: collects the period, writes it (-o atomically) as text, markdown, html or json, then mails and posts it.
import type { RecordFilter } from '../../filters/record-filter.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import type { EmailPlan } from '../../runtime/options/email-options.js';
import type { ArchiveSession } from '../../runtime/session.js';
import type { WebhookFormat } from '../../actions/webhook-url.js';
import { renderDigest } from '../../output/digest/render-digest.js';
import type { DigestFormat } from '../../output/format-kinds.js';
import { collectDigest } from './collect-digest.js';
import type { ChainPlan } from './digest-chain.js';

export type { DigestFormat } from '../../output/format-kinds.js';

/** A digest's run, every flag checked against the settings (src/cli/commands/digest-plan.ts). */
export interface DigestPlan {
  db: DbChoice;
  /** The period; with `chain`, the one claimed from the chain when the run starts instead. */
  fromMs: number;
  toMs: number;
  /** --since last: the chain of digests of this selection, whose last end starts the period. */
  chain: ChainPlan | undefined;
  sources: string[] | undefined;
  filter: RecordFilter;
  catalog: { file: string; map: ColumnMap; key?: string } | undefined;
  /** -f, else by the -o extension, else text. */
  format: DigestFormat;
  /** Whether it is written to stdout or -o: sent somewhere, only when asked for. */
  print: boolean;
  email: EmailPlan | undefined;
  webhook: { url: URL; format: WebhookFormat } | undefined;
}

/**
 * `session`: with the output in the digest's format (the plan's) and the archive the command declared (read-only, or
 * written with --since last). With --since last the period is claimed first; its end is recorded only once the digest
 * was written and delivered: after a failure the next digest covers the period again.
 */
export async function runDigest(plan: DigestPlan, session: ArchiveSession): Promise<void> {
  await digestOnce(plan, session);
  // A stop that came while the last delivery was under way let it end (and --since last record it): the run ends stopped.
  const { signal } = session.ctx;
  if (signal.aborted) throw signal.reason;
}

async function digestOnce(plan: DigestPlan, session: ArchiveSession): Promise<void> {
  const { chain } = plan;
  if (chain === undefined) return deliver(plan, session);
  const { claimPeriod, recordEnd, releaseClaim } = await import('./digest-chain.js');
  const { store, ctx, status } = session;
  const claim = await claimPeriod(store, chain, ctx, status);
  let readUpTo: number | undefined;
  try {
    await deliver({ ...plan, fromMs: claim.fromMs, toMs: claim.toMs }, session, (ms) => (readUpTo = ms));
    const end = readUpTo !== undefined && readUpTo > claim.fromMs ? readUpTo : undefined;
    // Delivered: an end that cannot be recorded (the disk full) is the run's error, and the claim is given up, so that
    // the next digest covers the period again at once.
    await recordEnd(store, chain, claim, end, status);
  } catch (err) {
    // Released even when stopped; a run killed before this holds its claim until it lapses (CLAIM_MS).
    await releaseClaim(store, chain, claim).catch(() => {});
    throw err;
  }
}

async function deliver(plan: DigestPlan, session: ArchiveSession, readUpTo?: (ms: number | undefined) => void) {
  const { ctx, settings, status } = session;
  const { email, webhook: hook } = plan;
  const output = await session.output();
  const digest = await collectDigest(plan, session, readUpTo && { readUpTo });
  ctx.ops?.counts({ new: digest.counts.new, updated: digest.counts.updated });
  if (plan.print) {
    const text = await renderDigest(digest, output.format.name, session.terminal.columns);
    await output.write((sink) => sink.text(text));
  }
  const { emailDigest, postDigest } = await import('./deliver-digest.js');
  if (email) {
    await emailDigest(digest, email, settings.timeoutMs, status, ctx);
    if (settings.verbose) status.note(`digest e-mailed to ${email.to.join(', ')} via ${email.server.shown}`);
  }
  if (hook) await postDigest(digest, hook, email?.to, settings.timeoutMs, status, ctx);
}
