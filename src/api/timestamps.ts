// The API's ISO 8601 timestamps as numbers: one parser for the sandbox's order and the archive's sort columns.

const ISO = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const DAY_MS = 86_400_000;

/**
 * Microseconds since the epoch for an ISO 8601 timestamp; naive values count as UTC. Sorting on this
 * number rather than the string keeps the order right for values of different precision or offset.
 * NaN when the text is not a timestamp.
 */
export function timestampMicros(s: string): number {
  const m = ISO.exec(s);
  if (!m) return NaN;
  const [, date, hh = '00', mm = '00', ss = '00', frac = '', zone = 'Z'] = m;
  const ms = clockMs(date as string, hh, mm, ss, zone);
  if (Number.isNaN(ms)) return NaN;
  const micros = Number(`${frac}000000`.slice(0, 6));
  return ms * 1000 + micros;
}

/**
 * The instant's milliseconds. A sync parses two or three per record: in the usual range this is arithmetic,
 * since building a Date and a string for Date.parse cost more than the rest of a record's columns.
 * Anything else (hour 24, a leap second, an offset past 23:59) is Date.parse's to accept or refuse.
 */
function clockMs(date: string, hh: string, mm: string, ss: string, zone: string): number {
  const y = Number(date.slice(0, 4));
  const mo = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  // Date.parse rolls 2026-02-30 over into March: a day the month does not have is no date.
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return NaN;
  const h = Number(hh);
  const min = Number(mm);
  const sec = Number(ss);
  let offsetMin = 0;
  if (zone !== 'Z') {
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(-2));
    if (zh > 23 || zm > 59) return byDateParse(date, hh, mm, ss, zone);
    offsetMin = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm);
  }
  if (h > 23 || min > 59 || sec > 59) return byDateParse(date, hh, mm, ss, zone);
  return daysFromCivil(y, mo, d) * DAY_MS + ((h * 60 + min - offsetMin) * 60 + sec) * 1000;
}

function byDateParse(date: string, hh: string, mm: string, ss: string, zone: string): number {
  return Date.parse(`${date}T${hh}:${mm}:${ss}${zone === 'Z' ? 'Z' : normaliseZone(zone)}`);
}

/** The proleptic Gregorian calendar, as Date counts it (year 0 is a leap year). */
function daysInMonth(y: number, mo: number): number {
  if (mo !== 2) return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, mo: number, d: number): number {
  const y = mo <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function normaliseZone(z: string): string {
  return z.includes(':') ? z : `${z.slice(0, 3)}:${z.slice(3)}`;
}
