// Doctor's archive checks (read-only): it opens, its schema is one we read, the case log verifies, the last syncs, the outbox.
import type { ArchiveStore } from '../../archive/store.js';
import type { DbTarget } from '../../archive/db-target.js';
import { probeArchive, withScratchArchive } from '../../runtime/archive/run-archive.js';
import { type CheckResult, fail, ok, warn } from './check.js';
import { checkOutbox } from './check-outbox.js';
import { checkArchiveMissing } from './check-archive-missing.js';

/** A source not synced successfully for this long is worth a warning: the feed's window is 24 hours. */
const STALE_SYNC_MS = 25 * 3_600_000;
const LOOK_BACK_MS = 31 * 86_400_000;

/** The archive at `target`, read-only; a failure to open it or to read it is the last check, failed. */
export async function checkArchive(target: DbTarget, now: number): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  try {
    const found = await probeArchive(target, async (archive) => {
      // A read-only open refuses a newer schema and migrates nothing: opening is the schema check.
      results.push(ok('archive', `${target.name} (${archive.engine}) opens; its schema is one this version reads`));
      results.push(await casesCheck(archive));
      results.push(...(await syncChecks(archive, now)));
      results.push(await checkOutbox(archive, target, now));
      return true;
    });
    if (!found) {
      // Before the first sync there is none: a fresh install is no failure, when the sync to come can create it, with
      // a SQLite driver that loads (a broken one fails the check below, with the hint, as it would fail that sync).
      if (target.kind === 'sqlite') await withScratchArchive(async () => undefined);
      return [await checkArchiveMissing(target)];
    }
  } catch (err) {
    const { describeError } = await import('../../runtime/error-reports.js');
    // The server's text may quote the password it was sent: runDoctor masks the run's secrets in every check.
    const report = describeError(err);
    results.push(fail('archive', `${target.name}: ${report.message}`, report.hints[0]));
  }
  return results;
}

async function casesCheck(archive: ArchiveStore): Promise<CheckResult> {
  const check = await archive.verifyCases();
  if (check.broken) {
    const b = check.broken;
    return fail(
      'cases',
      `case log broken at event ${b.seq}: ${b.problem}`,
      'run `recall-feed cases verify` for the details',
    );
  }
  return ok('cases', `${check.cases} cases, ${check.events} events: the log verifies`);
}

/** The newest successful sync of each source (a run over all sources counts for each as "all"). */
async function syncChecks(archive: ArchiveStore, now: number): Promise<CheckResult[]> {
  const runs = await archive.syncRuns({ fromMs: now - LOOK_BACK_MS, toMs: now + 60_000 });
  const last = new Map<string, number>();
  for (const run of runs) {
    if (run.outcome !== 'ok') continue;
    const at = Date.parse(run.ended_at ?? run.started_at);
    for (const source of run.sources ?? ['all sources']) last.set(source, Math.max(last.get(source) ?? 0, at));
  }
  if (last.size === 0)
    return [warn('sync', 'no successful sync in the last 31 days', 'run `recall-feed sync` (cron: hourly)')];
  return [...last].map(([source, at]) => {
    const ago = Math.round((now - at) / 60_000);
    const detail = `${source}: last successful sync ${new Date(at).toISOString()} (${ago} min ago)`;
    return now - at > STALE_SYNC_MS
      ? warn(`sync ${source}`, detail, 'the feed keeps 24 hours: recalls older than that were missed')
      : ok(`sync ${source}`, detail);
  });
}
