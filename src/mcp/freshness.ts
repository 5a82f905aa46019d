// How fresh every answer is: the archive's last successful sync and whether monitoring held over the last 24 hours.
import { z } from 'zod';
import { computeHealth } from '../archive/health.js';
import type { ArchiveStore } from '../archive/store.js';

const HOUR_MS = 3_600_000;
/** The period every answer's monitoring is judged over: the API's own window. */
const WINDOW_MS = 24 * HOUR_MS;
/**
 * An hourly sync from cron is the documented set-up: two hours without a successful one means a run failed or
 * stopped, and recalls published since may be missing.
 */
export const STALE_AFTER_MS = 2 * HOUR_MS;

export const FreshnessSchema = z
  .object({
    as_of: z.string().describe('when this answer was read (ISO 8601 UTC)'),
    last_ok_sync: z.string().nullable().describe('when the last successful sync ended; null when none did'),
    stale: z.boolean().describe(`no successful sync in the last ${STALE_AFTER_MS / HOUR_MS} hours`),
    complete: z.boolean().describe('monitoring held over the last 24 hours: no failed run, no gap, every source'),
    problems: z.array(z.string()).describe('why the archive is stale or monitoring incomplete, worst first'),
  })
  .describe('How fresh the answer is: read it before trusting an empty result');

export type Freshness = z.infer<typeof FreshnessSchema>;

/** The sources the key may use (`ids`), or why they are not known (no key, the key refused, no answer yet). */
export interface KeySources {
  ids: string[] | undefined;
  why?: string;
}

/**
 * The freshness of `archive` at `nowMs`; `allowed`: the sources the key may use, undefined when not checked, and
 * `why` not (said as is: never the key).
 */
export async function freshnessOf(
  archive: ArchiveStore,
  nowMs: number,
  allowed: readonly string[] | undefined,
  why = 'no API key, or the API has not answered',
): Promise<Freshness> {
  const period = { fromMs: nowMs - WINDOW_MS, toMs: nowMs };
  const health = computeHealth(await archive.syncRuns(period), period, allowed);
  // None in the window: how old the archive is still matters to whoever asks.
  const last = health.last_ok_sync ?? (await lastOkBefore(archive, nowMs));
  const stale = last === null || nowMs - Date.parse(last) > STALE_AFTER_MS;
  const problems: string[] = [];
  if (last === null) problems.push('no successful sync in the last 31 days: run `recall-feed sync`');
  else if (stale) problems.push(`the last successful sync ended ${hoursAgo(nowMs, last)} ago (${last})`);
  const { failed, interrupted } = health.runs;
  if (failed > 0) problems.push(`${failed} sync run(s) failed in the last 24 hours`);
  if (interrupted > 0) problems.push(`${interrupted} sync run(s) were interrupted in the last 24 hours`);
  for (const g of health.gaps) problems.push(`no sync saw recalls published from ${g.from} to ${g.to}`);
  if (health.sources_missing.length > 0)
    problems.push(`no sync covered the sources ${health.sources_missing.join(', ')}`);
  if (allowed === undefined)
    problems.push(`the sources the key may use were not checked (${why}), so monitoring cannot be called complete`);
  return { as_of: new Date(nowMs).toISOString(), last_ok_sync: last, stale, complete: health.complete, problems };
}

/** How far back a stale archive's last successful sync is looked for (as `doctor` looks). */
const LOOK_BACK_MS = 31 * 24 * HOUR_MS;

/** When the newest successful sync of the last LOOK_BACK_MS ended; null when none did. */
async function lastOkBefore(archive: ArchiveStore, nowMs: number): Promise<string | null> {
  const runs = await archive.syncRuns({ fromMs: nowMs - LOOK_BACK_MS, toMs: nowMs });
  const ended = runs
    .filter((r) => r.outcome === 'ok')
    .map((r) => Date.parse(r.ended_at ?? r.started_at))
    .filter((ms) => !Number.isNaN(ms) && ms <= nowMs);
  return ended.length === 0 ? null : new Date(Math.max(...ended)).toISOString();
}

function hoursAgo(nowMs: number, iso: string): string {
  const hours = (nowMs - Date.parse(iso)) / HOUR_MS;
  return hours < 48 ? `${Math.round(hours)} h` : `${Math.round(hours / 24)} days`;
}

/** The line every text answer opens with: a warning first when the archive is stale or monitoring incomplete. */
export function freshnessLine(f: Freshness): string {
  if (!f.stale && f.complete)
    return `Archive fresh: last successful sync ${f.last_ok_sync}; monitoring complete over the last 24 h.`;
  const what = f.stale ? 'STALE ARCHIVE' : 'INCOMPLETE MONITORING';
  return `WARNING, ${what}: ${f.problems.join('; ')}. An empty or short answer may be missing recalls.`;
}
