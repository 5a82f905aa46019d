// A sync_runs row as monitoring health judges it (either engine reads the rows; this reads their params).

/** One sync as the digest judges it: when it ran, what it asked for, how it ended. */
export interface SyncRunRow {
  id: number;
  /** ISO 8601 UTC with milliseconds, as sync_runs holds them. */
  started_at: string;
  ended_at: string | null;
  /** `ok`, `failed`, `interrupted`, or `running` (still running, or killed before it could say). */
  outcome: string;
  /** The sources it asked for; null: all the key may use. */
  sources: string[] | null;
  /** The sources the API's answers said they applied (`data_sources.filtered`); null when not recorded (older runs). */
  served: string[] | null;
  /** The look-back window it fetched, in hours. */
  hours: number;
  error: string | null;
}

/** How far before a period a run can still matter: its window (at most 24 h) may reach into the period. */
export const RUN_LOOKBACK_MS = 25 * 3_600_000;

export interface RawRunRow {
  id: number;
  started_at: string;
  ended_at: string | null;
  outcome: string;
  params: string;
  /** JSON array; absent on archives from before it was recorded. */
  served?: string | null;
  error: string | null;
}

/** A row's params JSON read leniently: a row another version wrote may lack a field, never stops a digest. */
export function toRunRow(raw: RawRunRow): SyncRunRow {
  let params: { sources?: unknown; hours?: unknown } = {};
  try {
    params = JSON.parse(raw.params) as typeof params;
  } catch {
    params = {};
  }
  const sources = Array.isArray(params.sources) ? params.sources.filter((s) => typeof s === 'string') : null;
  let served: string[] | null = null;
  try {
    const list: unknown = raw.served ? JSON.parse(raw.served) : null;
    if (Array.isArray(list)) served = list.filter((s): s is string => typeof s === 'string');
  } catch {
    served = null;
  }
  const hours = typeof params.hours === 'number' && params.hours > 0 ? params.hours : 24;
  return {
    id: raw.id,
    started_at: raw.started_at,
    ended_at: raw.ended_at,
    outcome: raw.outcome,
    sources,
    served,
    hours,
    error: raw.error,
  };
}
