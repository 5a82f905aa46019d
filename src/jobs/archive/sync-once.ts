// One sync: pages through the feed's window and stores each page in its own transaction, under one sync_runs row.
import { groupDigits } from '../../output/numbers.js';
import { BOUNDS } from '../../api/constants.js';
import type { ArchiveExtent, ArchiveStore, RunCounts } from '../../archive/store.js';
import type { SyncPlan } from './plans.js';
import type { Context } from '../../runtime/context.js';
import { InterruptedError } from '../../runtime/cli-errors.js';
import type { ApiSession } from '../../runtime/api-session.js';
import { writing } from '../../runtime/archive/archive-file.js';
import { readAhead } from './read-ahead.js';
import { maskSecrets } from '../../api/errors-mask.js';
import { runSecrets } from '../../runtime/config/run-secrets.js';

export interface SyncResult extends RunCounts {
  extent: ArchiveExtent;
}

/** The sources asked for: the flag, else the profile's, else undefined (all the key may use). */
function sourcesOf(plan: SyncPlan, session: ApiSession): string[] | undefined {
  return plan.sources ?? session.settings.profileSources;
}

export async function syncOnce(
  archive: ArchiveStore,
  plan: SyncPlan,
  session: ApiSession,
  ctx: Context,
): Promise<SyncResult> {
  const file = archive.name;
  const sources = sourcesOf(plan, session);
  const base = new URL(session.settings.baseUrl);
  // Recorded for provenance; the origin only, never credentials a URL might carry.
  const params = { sources: sources ?? null, hours: plan.hours, base_url: base.origin };
  const runId = await writing(file, () => archive.beginRun(params, ctx.now()));
  let fetched = 0;
  // What the answers said they applied: the digest judges coverage by it, not by what this key was asked. A page without
  // data_sources (the API may leave it out) served what was asked; when that was all the key may use, the run
  // records nothing served, and the digest reads what it asked for (archive/health.ts).
  const served = new Set<string>();
  let servedKnown = true;
  // One page may be handed to the archive while the one before is still being stored: an engine that
  // stores on a server (PostgreSQL) prepares the next page meanwhile; pages are stored in order.
  let storing: Promise<void> | undefined;
  try {
    const pages = session.client.feedPages({ dataSources: sources, hoursAgo: plan.hours, limit: BOUNDS.pageSizeMax });
    for await (const page of readAhead(pages)) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const applied = page.data_sources?.filtered ?? sources;
      if (applied === undefined) servedKnown = false;
      else for (const source of applied) served.add(source);
      const stored = writing(file, () => archive.upsertPage(page.data, runId, ctx.now)).then(() => {
        fetched += page.data.length;
        session.status.progress(`syncing… ${groupDigits(fetched)} of ${groupDigits(page.pagination.total_count)}`);
      });
      // Awaited below (or, after a failure, in the catch): never left to fail unheard.
      stored.catch(() => {});
      const before = storing;
      storing = stored;
      await before;
    }
    await storing;
    if (ctx.signal.aborted) throw ctx.signal.reason;
  } catch (err) {
    // The page in flight ends (stored or not) before the run is marked: the run's counts stay true.
    await storing?.catch(() => {});
    const interrupted = ctx.signal.aborted || err instanceof InterruptedError;
    try {
      await archive.finishRun(
        runId,
        interrupted ? 'interrupted' : 'failed',
        ctx.now(),
        maskSecrets(err instanceof Error ? err.message : String(err), runSecrets(ctx)),
        servedKnown ? [...served] : undefined,
      );
    } catch {
      // The archive may be what failed (disk full); the original error is the one to report.
    }
    throw err;
  }
  const counts = await writing(file, () =>
    archive.finishRun(runId, 'ok', ctx.now(), undefined, servedKnown ? [...served] : undefined),
  );
  ctx.ops?.counts({ fetched: counts.fetched, new: counts.added, updated: counts.updated });
  return { ...counts, extent: await archive.extent() };
}

const day = (us: number) => new Date(Math.floor(us / 1000)).toISOString().slice(0, 10);

/** `fetched 1,200 · 37 new · 4 updated · archive: 18,532 recalls, 2026-10-02 to 2026-11-21` */
export function syncSummaryLine(r: SyncResult, archiveName?: string): string {
  const { total, firstPublishedUs: first, lastPublishedUs: last } = r.extent;
  const span = first !== undefined && last !== undefined ? `, ${day(first)} to ${day(last)}` : '';
  return `fetched ${groupDigits(r.fetched)} · ${groupDigits(r.added)} new · ${groupDigits(r.updated)} updated · archive: ${groupDigits(total)} recalls${span}${archiveName ? ` in ${archiveName}` : ''}`;
}

/** The summary for programs (-f json); `total` is the archive's size after the run. */
export function syncSummary(r: SyncResult): Record<string, number> {
  return { fetched: r.fetched, new: r.added, updated: r.updated, unchanged: r.unchanged, total: r.extent.total };
}

/** The summary for programs as one line of JSON, as --watch prints it after each sync. */
export function syncSummaryJson(r: SyncResult): string {
  return `${JSON.stringify(syncSummary(r))}\n`;
}
