// The report's one verdict: when monitoring began, the health of the period from then on, the cases owed and not opened, said once for the page, the JSON and stderr.
import { computeHealth } from '../../archive/health.js';
import type { SyncRunRow } from '../../archive/run-rows.js';
import type { MonitoringView } from '../../output/archive-views.js';
import type { Verdict } from '../../output/report/report-model.js';
import { hoursText } from '../../output/report/report-words.js';
import { readable } from '../../output/report/report-times.js';

const HOUR_MS = 3_600_000;

/** The first successful sync, and from when it fetched recalls (its window before it started): when monitoring began. */
export function firstSync(runs: readonly SyncRunRow[]): { startedAt: string; beganMs: number } | undefined {
  let first: SyncRunRow | undefined;
  for (const r of runs)
    if (r.outcome === 'ok' && (first === undefined || Date.parse(r.started_at) < Date.parse(first.started_at)))
      first = r;
  return first && { startedAt: first.started_at, beganMs: Date.parse(first.started_at) - first.hours * HOUR_MS };
}

/**
 * When the last successful sync before `untilMs` began fetching (the run the health names, the one that ended last):
 * what the report's "no match ... as of" rests on, as the recalls it stored were fetched from then on. Null: none.
 */
export function lastSyncStart(runs: readonly SyncRunRow[], untilMs: number): string | null {
  let last: SyncRunRow | undefined;
  const ended = (r: SyncRunRow) => Date.parse(r.ended_at ?? r.started_at);
  for (const r of runs) {
    if (r.outcome !== 'ok' || !(Date.parse(r.started_at) < untilMs)) continue;
    if (last === undefined || ended(r) > ended(last) || (ended(r) === ended(last) && r.started_at > last.started_at))
      last = r;
  }
  return last?.started_at ?? null;
}

/**
 * Monitoring over [fromMs, untilMs) as far as it could be: the time before the first sync's window was never
 * monitored, which is said once (`unmonitoredMs`), not counted as a gap a sync missed.
 */
export function monitoringOver(
  runs: readonly SyncRunRow[],
  fromMs: number,
  untilMs: number,
  allowed: readonly string[] | undefined,
): { health: MonitoringView; first: ReturnType<typeof firstSync>; unmonitoredMs: number } {
  const first = firstSync(runs);
  const start = first === undefined ? fromMs : Math.min(Math.max(fromMs, first.beganMs), untilMs);
  return {
    health: computeHealth(runs, { fromMs: start, toMs: untilMs }, allowed),
    first,
    unmonitoredMs: start - fromMs,
  };
}

/** Why the period is incomplete, in words; empty when nothing is missing. */
function reasons(h: MonitoringView, sourcesChecked: boolean, uncased: number): string[] {
  const out: string[] = [];
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (!h.complete) {
    if (h.last_ok_sync === null) out.push('no sync succeeded');
    if (h.runs.failed > 0) out.push(`${plural(h.runs.failed, 'sync')} failed`);
    if (h.runs.interrupted > 0) out.push(`${plural(h.runs.interrupted, 'sync')} interrupted`);
    if (h.gaps.length > 0) {
      const hours = h.gaps.reduce((s, g) => s + g.hours, 0);
      out.push(
        `${h.gaps.length} ${h.gaps.length === 1 ? 'gap' : 'gaps'} between syncs that no sync covered (${Math.round(hours * 10) / 10} h)`,
      );
    }
    // With no sync at all, every source is one no sync covered: said once, by 'no sync succeeded'.
    if (h.sources_missing.length > 0 && h.last_ok_sync !== null)
      out.push(`no successful sync in the period covered: ${h.sources_missing.join(', ')}`);
    if (!sourcesChecked) out.push('the sources the key may use were not checked (no API key, or the API unreachable)');
    if (out.length === 0) out.push('no sync succeeded in the period');
  }
  if (uncased > 0)
    out.push(
      `${uncased} ${uncased === 1 ? 'match of a catalogue row has' : 'matches of catalogue rows have'} no case (listed under "Matches without a case"): run recall-feed match --archive --open-cases`,
    );
  return out;
}

/** The verdict: complete, complete since monitoring began within the period, or incomplete and why. */
export function reportVerdict(v: {
  health: MonitoringView;
  first: ReturnType<typeof firstSync>;
  unmonitoredMs: number;
  sourcesChecked: boolean;
  uncased: number;
}): Verdict {
  const why = reasons(v.health, v.sourcesChecked, v.uncased);
  const began = v.first === undefined ? null : new Date(v.first.beganMs).toISOString();
  const unmonitored = Math.round((v.unmonitoredMs / HOUR_MS) * 10) / 10;
  const before =
    v.first !== undefined && v.unmonitoredMs > 0
      ? `Monitoring began with the archive's first sync (${readable(v.first.startedAt)}), which fetched recalls published from ${readable(began)}; the ${hoursText(unmonitored)} of this period before that were not monitored.`
      : '';
  const base = { monitoring_began: began, unmonitored_hours: Math.max(0, unmonitored) };
  if (why.length > 0)
    return {
      ...base,
      state: 'incomplete',
      text: `INCOMPLETE: ${why.join('; ')}. Recalls that monitoring did not reach may not have been checked.${before ? ` ${before}` : ''}`,
    };
  if (before)
    return {
      ...base,
      state: 'complete-since-start',
      text: `${before} From then on monitoring was complete: recall-feed report --since ${began} covers only monitored time, and is complete.`,
    };
  const runs = v.health.runs.ok;
  return {
    ...base,
    state: 'complete',
    text: `Monitoring was complete over the period: ${runs} successful ${runs === 1 ? 'sync' : 'syncs'}, none failed or interrupted, no gap, every source the key may use synced.`,
  };
}
