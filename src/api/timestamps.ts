// The API's ISO 8601 timestamps as numbers: one parser for the sandbox's order and the archive's sort columns.

const ISO = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Microseconds since the epoch for an ISO 8601 timestamp; naive values count as UTC. Sorting on this
 * number rather than the string keeps the order right for values of different precision or offset.
 * NaN when the text is not a timestamp.
 */
export function timestampMicros(s: string): number {
  const m = ISO.exec(s);
  if (!m) return NaN;
  const [, date, hh = '00', mm = '00', ss = '00', frac = '', zone = 'Z'] = m;
  if (!isCalendarDate(date as string)) return NaN;
  const ms = Date.parse(`${date}T${hh}:${mm}:${ss}${zone === 'Z' ? 'Z' : normaliseZone(zone)}`);
  if (Number.isNaN(ms)) return NaN;
  const micros = Number(`${frac}000000`.slice(0, 6));
  return ms * 1000 + micros;
}

/** Date.parse rolls 2026-02-30 over into March: a day the month does not have is no date. */
function isCalendarDate(date: string): boolean {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which takes years below 100 for 19xx
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
}

function normaliseZone(z: string): string {
  return z.includes(':') ? z : `${z.slice(0, 3)}:${z.slice(3)}`;
}
