// Whether monitoring held over a period: the sync runs that succeeded, failed or were interrupted, the gaps, the sources no run covered.
import { canonicalSource } from '../api/constants.js';
import type { SyncRunRow } from './run-rows.js';

export interface MonitoringHealth {
  complete: boolean;
  runs: { ok: number; failed: number; interrupted: number };
  last_ok_sync: string | null;
  gaps: Array<{ from: string; to: string; hours: number }>;
  sources_missing: string[];
}

/**
 * A run still `running` this long after it started, as seen from the end of the period, was killed
 * (SIGKILL, a power cut) before it could record its end: it counts as interrupted. A sync fetches at
 * most a day's window, a few pages, in minutes even when paced; an hour is far beyond any live run.
 */
export const STALE_RUN_MS = 3_600_000;

/**
 * The stretch after the last successful sync up to the end of the period is not a gap while it is at
 * most this long: with an hourly sync the next one is still to come. Longer, and recalls published
 * there are missing from the archive.
 */
export const TRAILING_GRACE_MS = 3_600_000;

const HOUR_MS = 3_600_000;

function ms(iso: string | null): number {
  return iso === null ? Number.NaN : Date.parse(iso);
}

function classify(run: SyncRunRow, toMs: number): 'ok' | 'failed' | 'interrupted' | 'running' {
  if (run.outcome === 'ok' || run.outcome === 'failed' || run.outcome === 'interrupted') return run.outcome;
  return run.ended_at === null && ms(run.started_at) < toMs - STALE_RUN_MS ? 'interrupted' : 'running';
}

function gap(fromMs: number, toMs: number) {
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    hours: Math.round(((toMs - fromMs) / HOUR_MS) * 100) / 100,
  };
}

/**
 * The parts of [fromMs, toMs) that no successful sync could see. A successful run saw what was published
 * from `hours` before it started until it ended; what lies between two runs' views is a gap.
 */
function findGaps(okRuns: readonly SyncRunRow[], fromMs: number, toMs: number): MonitoringHealth['gaps'] {
  const views = okRuns
    .map((r) => ({ start: ms(r.started_at) - r.hours * HOUR_MS, end: ms(r.ended_at ?? r.started_at) }))
    .filter((v) => !Number.isNaN(v.start) && !Number.isNaN(v.end))
    .sort((a, b) => a.start - b.start);
  const gaps: MonitoringHealth['gaps'] = [];
  let seenUntil = fromMs;
  for (const view of views) {
    if (seenUntil >= toMs) break;
    if (view.start > seenUntil) gaps.push(gap(seenUntil, Math.min(view.start, toMs)));
    seenUntil = Math.max(seenUntil, view.end);
  }
  if (seenUntil < toMs && toMs - seenUntil > TRAILING_GRACE_MS) gaps.push(gap(seenUntil, toMs));
  return gaps;
}

/**
 * The monitoring health of [fromMs, toMs) from the sync runs around it. Runs are counted when they
 * started in the period; earlier runs (up to RUN_LOOKBACK_MS) only lend their view to the gap check.
 * `sourcesAllowed` undefined means the sources the key may use could not be checked: then nothing is
 * reported missing, and the period cannot be complete.
 */
export function computeHealth(
  runs: readonly SyncRunRow[],
  period: { fromMs: number; toMs: number },
  sourcesAllowed: readonly string[] | undefined,
): MonitoringHealth {
  const counts = { ok: 0, failed: 0, interrupted: 0 };
  const okRuns: SyncRunRow[] = [];
  const covered = new Set<string>();
  let coversAll = false;
  let lastOk: SyncRunRow | undefined;
  for (const run of runs) {
    const started = ms(run.started_at);
    if (!(started < period.toMs)) continue;
    const kind = classify(run, period.toMs);
    if (kind === 'ok') {
      okRuns.push(run);
      if (lastOk === undefined || ms(run.ended_at) > ms(lastOk.ended_at)) lastOk = run;
    }
    if (started < period.fromMs || kind === 'running') continue;
    counts[kind]++;
    if (kind !== 'ok') continue;
    // What the answers said they applied; a run from before that was recorded, what it asked for (all the key may
    // use, when it named none: that older row cannot tell which key it used).
    const served = run.served ?? run.sources;
    if (served === null) coversAll = true;
    else for (const s of served) covered.add(canonicalSource(s));
  }
  const gaps = findGaps(okRuns, period.fromMs, period.toMs);
  // Compared by canonical ID: /sources may say eu_safety_gate of the source a sync was served as safety_gate.
  const missing =
    coversAll || sourcesAllowed === undefined ? [] : sourcesAllowed.filter((s) => !covered.has(canonicalSource(s)));
  return {
    complete:
      counts.ok > 0 &&
      counts.failed === 0 &&
      counts.interrupted === 0 &&
      gaps.length === 0 &&
      sourcesAllowed !== undefined &&
      missing.length === 0,
    runs: counts,
    last_ok_sync: lastOk?.ended_at ?? null,
    gaps,
    sources_missing: missing,
  };
}
