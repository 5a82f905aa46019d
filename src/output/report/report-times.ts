// Times as the report's pages show them (UTC, to the second or the minute); the JSON keeps the exact values.
import { utcMs } from '../api-time.js';

/** An ISO time as people read it: `2026-11-26 08:03:15 UTC` (the JSON keeps the exact value). */
export function readable(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '';
  // A time without an offset is UTC, as everywhere the cases read API times.
  const ms = utcMs(iso);
  if (!Number.isFinite(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** To the minute, for the summary table's narrow columns: `2026-11-26 08:03 UTC`. */
export function minute(iso: string | null | undefined): string {
  return readable(iso).replace(/:\d\d UTC$/, ' UTC');
}
