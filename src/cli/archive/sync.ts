// Runs `sync`: opens the session and the archive, syncs once (summary on stderr or -f json) or on a timer with --watch.
import type { Archive } from '../../archive/index.js';
import type { SyncPlan } from './plans.js';
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import { describeError } from '../exit-codes.js';
import { endsWatch } from '../failure-policy.js';
import { openTarget } from '../files/output-target.js';
import { tellsSuccess } from '../files/write-output.js';
import { openSession, type Session } from '../session.js';
import type { GlobalFlags, Settings } from '../settings.js';
import { archivePath, openArchiveFile } from './archive-file.js';
import { BOUNDS } from '../../api/constants.js';
import { PollInterval } from '../feed/poll-interval.js';
import { syncOnce, syncSummaryJson, syncSummaryLine } from './sync-once.js';

/** Whether the summary goes to stdout as JSON (-f json or jsonl); sync has no records to print otherwise. */
function jsonSummary(settings: Settings): boolean {
  const format = settings.format ?? (settings.output?.toLowerCase().endsWith('.json') ? 'json' : undefined);
  if (format === 'json' || format === 'jsonl') return true;
  if (format !== undefined) throw new UsageError(`sync prints its summary as -f json, not -f ${format}`);
  if (settings.output) throw new UsageError('sync writes its summary to -o only with -f json');
  return false;
}

export async function runSync(plan: SyncPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const session = await openSession(globals, ctx, { needsKey: true });
  let archive: Archive | undefined;
  try {
    const json = jsonSummary(session.settings);
    if (json && plan.intervalMs !== undefined && session.settings.output) {
      throw new UsageError('--watch writes its summaries to stdout', 'redirect it (>> file)');
    }
    archive = await openArchiveFile(archivePath(plan.db, ctx.env, session.settings.profileDb), { create: true });
    if (plan.intervalMs !== undefined) return await watch(archive, plan, session, ctx, json);
    await session.status.start('syncing…');
    const result = await syncOnce(archive, plan, session, ctx);
    session.status.stop();
    if (!json) {
      // Off a terminal a successful sync is silent (cron mails only problems); -v says it anyway.
      if (tellsSuccess(session)) session.status.note(syncSummaryLine(result));
      return;
    }
    const target = await openTarget(session.settings, ctx);
    try {
      target.stream.write(syncSummaryJson(result));
      await target.commit();
    } catch (err) {
      await target.discard();
      throw err;
    }
  } finally {
    archive?.close();
    await session.close();
  }
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** Syncs, waits, syncs again; a failed sync is reported and retried with backoff, never fatal unless no retry can help. */
async function watch(archive: Archive, plan: SyncPlan, session: Session, ctx: Context, json: boolean): Promise<never> {
  // The same pacing as feed --watch: stretched to fit the monthly quota, backed off after failures.
  const pace = new PollInterval(plan.intervalMs as number, 'syncing');
  while (!ctx.signal.aborted) {
    let delay: number;
    const started = ctx.now();
    try {
      const result = await syncOnce(archive, plan, session, ctx);
      if (json) ctx.stdout.write(syncSummaryJson(result));
      else session.status.note(`${clock(started)} ${syncSummaryLine(result)}`);
      const requests = Math.ceil(result.fetched / BOUNDS.pageSizeMax);
      const next = pace.afterSuccess(session.client.lastRateLimit, ctx.now(), requests);
      if (next.notice) session.status.note(next.notice);
      delay = Math.max(0, next.intervalMs - (ctx.now() - started));
    } catch (err) {
      if (ctx.signal.aborted) break;
      if (endsWatch(err)) throw err;
      delay = pace.afterFailure();
      session.status.note(
        `recall-feed: sync failed: ${describeError(err).message}; next sync in ${Math.ceil(delay / 1000)} s`,
      );
    }
    try {
      await ctx.sleep(delay, ctx.signal);
    } catch {
      break;
    }
  }
  throw ctx.signal.reason ?? new InterruptedError('SIGINT');
}
