// An API time (published_at, updated_at) as an instant: the one reading that sorting, deadlines and the report share.

/** An API time as milliseconds: one without an offset (`2026-01-14T17:00:00`, as some sources send) is UTC; NaN when unreadable. */
export function utcMs(value: unknown): number {
  if (typeof value !== 'string') return Number.NaN;
  const bare = /T\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value.trim());
  return Date.parse(bare ? `${value.trim()}Z` : value);
}

/** Newest first by the instants the two times name (not their text); a missing or unreadable time after any readable one. */
export function newestFirst(a: unknown, b: unknown): number {
  const x = utcMs(a);
  const y = utcMs(b);
  if (Number.isFinite(x) && Number.isFinite(y)) return y - x;
  return Number(Number.isFinite(y)) - Number(Number.isFinite(x));
}
