// Recall severities from worst to least, for sorting and for naming the worst one in a subject line (the digest, the alert e-mail).
import { newestFirst } from './api-time.js';

/** Known labels, worst first; any other label ranks after them, and a missing one last. */
export const SEVERITY_ORDER = ['serious', 'high', 'medium', 'low'] as const;

export function severityOf(record: Record<string, unknown>): string | undefined {
  const v = record.risk_severity;
  return typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : undefined;
}

export function severityRank(record: Record<string, unknown>): number {
  const s = severityOf(record);
  if (s === undefined) return SEVERITY_ORDER.length + 1;
  const i = (SEVERITY_ORDER as readonly string[]).indexOf(s);
  return i === -1 ? SEVERITY_ORDER.length : i;
}

/** The worst known severity among the records and how many have it; undefined when none has a known one. */
export function worstSeverity(
  records: readonly Record<string, unknown>[],
): { severity: string; count: number } | undefined {
  let best: number | undefined;
  let count = 0;
  for (const r of records) {
    const rank = severityRank(r);
    if (rank >= SEVERITY_ORDER.length) continue;
    if (best === undefined || rank < best) {
      best = rank;
      count = 1;
    } else if (rank === best) count++;
  }
  return best === undefined ? undefined : { severity: SEVERITY_ORDER[best] as string, count };
}

/**
 * Worst severity first; within one, newest published first (as instants: `07:00-04:00` is after `08:00` UTC), then
 * the highest id (as the archive lists them).
 */
export function bySeverity(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return (
    severityRank(a) - severityRank(b) ||
    newestFirst(a.published_at, b.published_at) ||
    Number(b.id ?? 0) - Number(a.id ?? 0)
  );
}
