// Runs `sync`: with the client and the archive its run opened, syncs once (summary on stderr or -f json) or on a timer with --watch.
import type { ArchiveStore } from '../../archive/store.js';
import type { SyncPlan } from './plans.js';
import type { ActionsPlan, PollPlan } from '../watch/plan.js';
import type { Context } from '../../runtime/context.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { askedFormat } from '../../runtime/files/output-target.js';
import { tellsSuccess } from '../../runtime/files/write-output.js';
import type { ApiSession, ArchiveSession, ArchiveUse, Uses } from '../../runtime/session.js';
import type { Settings } from '../../runtime/settings.js';
import { writing } from '../../runtime/archive/archive-file.js';
import { fromSandbox } from '../../runtime/archive/sandbox-origin.js';
import { BOUNDS } from '../../api/constants.js';
import { clock, repeatPolls } from '../watch/poll-interval.js';
import { syncOnce, syncSummary, syncSummaryJson, syncSummaryLine } from './sync-once.js';
import type { OutboxDelivery } from './outbox-delivery.js';

/**
 * Whether the summary goes to stdout as JSON: when -f or the -o extension asks for a format, which can only be
 * one of sync's (json, jsonl: others were refused before the run, format-choices.ts); sync has no records.
 */
function jsonSummary(settings: Settings): boolean {
  if (askedFormat(settings)) return true;
  // The command refuses such an -o with the names it takes (src/cli/commands/sync.ts); this is for other callers.
  if (settings.output)
    throw new UsageError('sync writes its summary to -o only in a format it writes: say which with -f');
  return false;
}

/**
 * What a sync uses: the summary's output with -f json (one JSON object, whichever of json and jsonl was asked for),
 * the client, then the archive, created when missing. Its output flags are checked here, before anything opens.
 */
export function syncUses(plan: SyncPlan, settings: Settings): Uses & { archive: ArchiveUse } {
  const json = jsonSummary(settings);
  if (json && plan.watch !== undefined && settings.output) {
    throw new UsageError('--watch writes its summaries to stdout', 'redirect it (>> file)');
  }
  return {
    // The format asked for (json or jsonl) prints the summary as one JSON object either way (sink.document).
    ...(json ? { output: {} } : {}),
    api: { needsKey: true },
    archive: { db: plan.db, mode: 'create' },
  };
}

/** `session`: with what `syncUses(plan)` declares open. */
export async function runSync(plan: SyncPlan, session: ArchiveSession): Promise<void> {
  const { ctx, store: archive } = session;
  const api = await session.api({ needsKey: true });
  let delivery: OutboxDelivery | undefined;
  try {
    const { settings } = api;
    const json = jsonSummary(settings);
    const output = json ? await session.output() : undefined;
    const { actions } = plan;
    // The sandbox's invented recalls and real ones never share an archive.
    await writing(archive.name, () => archive.claimOrigin(fromSandbox(settings) ? 'sandbox' : 'api'));
    delivery = actions ? await outboxDelivery(archive, actions, plan, api, ctx) : undefined;
    if (plan.watch !== undefined) return await watch(archive, plan.watch, plan, api, ctx, json, delivery);
    await api.status.start('syncing…');
    const result = await syncDelivering(archive, plan, api, ctx, delivery);
    api.status.stop();
    if (delivery) {
      noteDeliveries(api, await delivery.deliver());
      // Stopped mid-delivery: what is left stays owed in the outbox; the run says it was interrupted.
      if (ctx.signal.aborted) throw ctx.signal.reason;
    }
    if (!output) {
      // Off a terminal a successful sync is silent (cron mails only problems); -v says it anyway.
      if (tellsSuccess(api)) api.status.note(syncSummaryLine(result, named(api, archive)));
      return;
    }
    // The summary is one JSON object on one line, whichever of json and jsonl was asked for.
    const summary = syncSummary(result);
    await output.write((sink) => sink.document({ one: summary, items: [summary] }));
  } finally {
    await delivery?.close();
  }
}

/** The actions' delivery from the archive's outbox; every page stored from now on queues them. */
async function outboxDelivery(
  archive: ArchiveStore,
  actions: ActionsPlan,
  plan: SyncPlan,
  session: ApiSession,
  ctx: Context,
): Promise<OutboxDelivery> {
  const { openOutboxDelivery } = await import('./outbox-delivery.js');
  const delivery = openOutboxDelivery(archive, actions, plan.onUpdate === true, session, ctx);
  archive.setOutboxActions(delivery.queued);
  return delivery;
}

/**
 * One sync; when it fails (the API down, a page refused), what earlier pages queued is still delivered before the
 * error is reported: an outage of the feed does not hold up alerts already stored.
 */
async function syncDelivering(
  archive: ArchiveStore,
  plan: SyncPlan,
  session: ApiSession,
  ctx: Context,
  delivery: OutboxDelivery | undefined,
) {
  try {
    return await syncOnce(archive, plan, session, ctx);
  } catch (err) {
    if (delivery && !ctx.signal.aborted) await delivery.deliver().catch(() => {});
    throw err;
  }
}

function noteDeliveries(session: ApiSession, report: { delivered: number; failed: number }): void {
  if (report.delivered + report.failed > 0 && tellsSuccess(session))
    session.status.note(`actions: ${report.delivered} delivered · ${report.failed} failed`);
}

/** With --sandbox the summary names the archive: it is not the usual one. */
function named(session: ApiSession, archive: ArchiveStore): string | undefined {
  return session.settings.sandbox ? archive.name : undefined;
}

/** Syncs, waits, syncs again; a failed sync is reported and retried with backoff, never fatal unless no retry can help. */
function watch(
  archive: ArchiveStore,
  poll: PollPlan,
  plan: SyncPlan,
  session: ApiSession,
  ctx: Context,
  json: boolean,
  delivery: OutboxDelivery | undefined,
): Promise<never> {
  // The same loop as feed --watch: stretched to fit the monthly quota, backed off after failures.
  return repeatPolls({
    intervalMs: poll.intervalMs,
    noun: 'sync',
    verb: 'syncing',
    session,
    ctx,
    round: async () => {
      const started = ctx.now();
      const result = await syncDelivering(archive, plan, session, ctx, delivery);
      if (json) ctx.stdout.write(syncSummaryJson(result));
      else session.status.note(`${clock(started)} ${syncSummaryLine(result, named(session, archive))}`);
      // After each round: what it queued, what earlier rounds left, and what a host killed mid-delivery left.
      if (delivery) noteDeliveries(session, await delivery.deliver());
      return { requests: Math.ceil(result.fetched / BOUNDS.pageSizeMax) };
    },
  });
}
