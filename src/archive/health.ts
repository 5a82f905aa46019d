// Monitoring health over a period, from the sync_runs rows: runs by outcome, the stretches no sync covered, sources never synced.
//
// A sync at time t fetches the feed's window, the `hours` it was asked (24 at most) before t, so it covers
// [t - hours, t]. What no ok sync covered between the period's start and the last ok sync is a gap; after the
// last ok sync nothing is known yet, which is why a report says "as of" that time.

/** A sync_runs row as stored. */
export interface SyncRunRow {
  id: number;
  started_at: string;
  ended_at: string | null;
  outcome: string;
  params: string;
  error: string | null;
}

export interface MonitoringHealth {
  complete: boolean;
  runs: { ok: number; failed: number; interrupted: number };
  last_ok_sync: string | null;
  gaps: Array<{ from: string; to: string; hours: number }>;
  sources_missing: string[];
}

const HOUR = 3_600_000;
/** The feed's own window: what a sync without `hours` fetches. */
const WINDOW_HOURS = 24;

interface RunParams {
  hours?: number | null;
  sources?: string[] | null;
}

function paramsOf(run: SyncRunRow): RunParams {
  try {
    const parsed = JSON.parse(run.params) as unknown;
    return parsed !== null && typeof parsed === 'object' ? (parsed as RunParams) : {};
  } catch {
    return {};
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

export function computeHealth(
  runs: readonly SyncRunRow[],
  period: { fromMs: number; toMs: number },
  sourcesAllowed: readonly string[] | undefined,
): MonitoringHealth {
  const counts = { ok: 0, failed: 0, interrupted: 0 };
  const covered: Array<[number, number]> = [];
  const synced = new Set<string>();
  let allSources = false;
  let lastOk: number | undefined;
  for (const run of runs) {
    const at = Date.parse(run.started_at);
    if (Number.isNaN(at) || at > period.toMs) continue;
    const inPeriod = at >= period.fromMs;
    if (inPeriod && (run.outcome === 'ok' || run.outcome === 'failed' || run.outcome === 'interrupted'))
      counts[run.outcome]++;
    if (run.outcome !== 'ok') continue;
    const params = paramsOf(run);
    const hours = typeof params.hours === 'number' && params.hours > 0 ? params.hours : WINDOW_HOURS;
    covered.push([at - hours * HOUR, at]);
    lastOk = Math.max(lastOk ?? at, at);
    if (!inPeriod) continue;
    if (Array.isArray(params.sources)) for (const s of params.sources) synced.add(s);
    else allSources = true;
  }
  const gaps: MonitoringHealth['gaps'] = [];
  const end = Math.min(period.toMs, lastOk ?? period.fromMs);
  let reached = period.fromMs;
  const addGap = (from: number, to: number) =>
    gaps.push({ from: iso(from), to: iso(to), hours: Math.round(((to - from) / HOUR) * 10) / 10 });
  for (const [from, to] of covered.sort((a, b) => a[0] - b[0])) {
    if (from > reached && reached < end) addGap(reached, Math.min(from, end));
    reached = Math.max(reached, to);
  }
  if (lastOk === undefined || lastOk < period.fromMs) gaps.length = 0;
  if (lastOk === undefined || lastOk < period.fromMs) addGap(period.fromMs, period.toMs);
  const missing = allSources ? [] : (sourcesAllowed ?? []).filter((s) => !synced.has(s));
  return {
    complete: counts.ok > 0 && gaps.length === 0 && missing.length === 0,
    runs: counts,
    last_ok_sync: lastOk === undefined ? null : iso(lastOk),
    gaps,
    sources_missing: missing,
  };
}
