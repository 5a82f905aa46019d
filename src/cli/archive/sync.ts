// Runs `sync`: opens the session and the archive, syncs once (summary on stderr or -f json) or on a timer with --watch.
import type { ArchiveStore } from '../../archive/store.js';
import type { SyncPlan } from './plans.js';
import type { Context } from '../context.js';
import { UsageError } from '../cli-errors.js';
import { formatOfPath, openTarget } from '../files/output-target.js';
import { tellsSuccess, writeOutput } from '../files/write-output.js';
import { openSession, type Session } from '../session.js';
import type { GlobalFlags, Settings } from '../settings.js';
import { archiveTarget, openArchiveAt, writerOptions, writing } from './archive-file.js';
import { BOUNDS } from '../../api/constants.js';
import { clock, repeatPolls } from '../feed/poll-interval.js';
import { syncOnce, syncSummaryJson, syncSummaryLine } from './sync-once.js';

/** Whether the summary goes to stdout as JSON (-f json or jsonl); sync has no records to print otherwise. */
function jsonSummary(settings: Settings): boolean {
  const format = settings.format ?? formatOfPath(settings.output);
  if (format === 'json' || format === 'jsonl') return true;
  if (format !== undefined) throw new UsageError(`sync prints its summary as -f json, not -f ${format}`);
  if (settings.output) throw new UsageError('sync writes its summary to -o only with -f json');
  return false;
}

export async function runSync(plan: SyncPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const session = await openSession(globals, ctx, { needsKey: true });
  let archive: ArchiveStore | undefined;
  try {
    const json = jsonSummary(session.settings);
    if (json && plan.intervalMs !== undefined && session.settings.output) {
      throw new UsageError('--watch writes its summaries to stdout', 'redirect it (>> file)');
    }
    const { settings } = session;
    const target = archiveTarget(plan.db, ctx.env, settings.profileDb, settings.sandbox);
    if (settings.verbose) session.status.note(`archive: ${target.name}`);
    archive = await openArchiveAt(target, { create: true, ...writerOptions(ctx.env, ctx.signal) });
    const opened = archive;
    // The sandbox's invented recalls and real ones never share an archive.
    await writing(target.name, () => opened.claimOrigin(settings.sandbox ? 'sandbox' : 'api'));
    if (plan.intervalMs !== undefined) return await watch(archive, plan, session, ctx, json);
    await session.status.start('syncing…');
    const result = await syncOnce(archive, plan, session, ctx);
    session.status.stop();
    if (!json) {
      // Off a terminal a successful sync is silent (cron mails only problems); -v says it anyway.
      if (tellsSuccess(session)) session.status.note(syncSummaryLine(result, named(session, opened)));
      return;
    }
    await writeOutput(
      () => openTarget(session.settings, ctx),
      async (target) => {
        target.stream.write(syncSummaryJson(result));
      },
    );
  } finally {
    await archive?.close();
    await session.close();
  }
}

/** With --sandbox the summary names the archive: it is not the usual one. */
function named(session: Session, archive: ArchiveStore): string | undefined {
  return session.settings.sandbox ? archive.name : undefined;
}

/** Syncs, waits, syncs again; a failed sync is reported and retried with backoff, never fatal unless no retry can help. */
function watch(archive: ArchiveStore, plan: SyncPlan, session: Session, ctx: Context, json: boolean): Promise<never> {
  // The same loop as feed --watch: stretched to fit the monthly quota, backed off after failures.
  return repeatPolls({
    intervalMs: plan.intervalMs as number,
    noun: 'sync',
    verb: 'syncing',
    session,
    ctx,
    round: async () => {
      const started = ctx.now();
      const result = await syncOnce(archive, plan, session, ctx);
      if (json) ctx.stdout.write(syncSummaryJson(result));
      else session.status.note(`${clock(started)} ${syncSummaryLine(result, named(session, archive))}`);
      return { requests: Math.ceil(result.fetched / BOUNDS.pageSizeMax) };
    },
  });
}
