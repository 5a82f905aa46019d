// Builds the digest of a period (its JSON contract, docs/digest.md, is src/output/digest/digest-view.ts) from what was collected.
import type { MonitoringView } from '../../output/archive-views.js';
import type { Deadlines } from '../../output/digest/deadline-text.js';
import type { Digest, ValueCount } from '../../output/digest/digest-view.js';
import type { ProductRow } from '../../output/digest/product-text.js';
import { bySeverity, severityOf } from '../../output/severity-order.js';
import { deadlinesOf } from './deadlines.js';
import { productCounts } from './product-counts.js';

function countBy(
  records: readonly Record<string, unknown>[],
  value: (r: Record<string, unknown>) => string,
): ValueCount[] {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(value(r), (counts.get(value(r)) ?? 0) + 1);
  return [...counts]
    .map(([v, count]) => ({ value: v, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

export function buildDigest(parts: {
  fromMs: number;
  toMs: number;
  /** None given: no case is due (as of the period's end). */
  deadlines?: Deadlines;
  stored: { new: Record<string, unknown>[]; updated: Record<string, unknown>[] };
  matches: Record<string, unknown>[] | null;
  products: ProductRow[] | null;
  health: MonitoringView;
  sourcesChecked: boolean;
  /** Every write stamped before the period's end had committed when the digest read it. */
  settled: boolean;
}): Digest {
  const fresh = [...parts.stored.new].sort(bySeverity);
  const updated = [...parts.stored.updated].sort(bySeverity);
  const all = [...fresh, ...updated];
  const period = { from: new Date(parts.fromMs).toISOString(), to: new Date(parts.toMs).toISOString() };
  return {
    period,
    deadlines: parts.deadlines ?? deadlinesOf([], parts.toMs),
    products: parts.products,
    recalls: { new: fresh, updated },
    counts: {
      new: fresh.length,
      updated: updated.length,
      by_severity: countBy(all, (r) => severityOf(r) ?? '(none)'),
      by_source: countBy(all, (r) => (typeof r.data_source === 'string' ? r.data_source : '(none)')),
      products: parts.products === null ? null : productCounts(parts.products, period, all.length),
    },
    matches: parts.matches,
    health: {
      ...parts.health,
      complete: parts.health.complete && parts.settled,
      sources_checked: parts.sourcesChecked,
      writes_settled: parts.settled,
    },
  };
}
