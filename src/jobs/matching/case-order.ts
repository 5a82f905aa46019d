// The order people read cases in, shared by cases, the report and the digest's deadlines.
import { severityRank } from '../../output/severity-order.js';

/** Matches before possibles, then the most serious recall first, then the oldest case: the order people read. */
export function byLevelAndSeverity<T extends { id: number; level: string; risk_severity: string | null }>(
  a: T,
  b: T,
): number {
  const level = (x: T) => (x.level === 'match' ? 0 : x.level === 'possible' ? 1 : 2);
  const severity = (x: T) => severityRank({ risk_severity: x.risk_severity });
  return level(a) - level(b) || severity(a) - severity(b) || a.id - b.id;
}
