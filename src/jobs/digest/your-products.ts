// "Your products": each catalogue row a period's recall touches, named by its key and name, ordered for the reader (level, severity, newest).
import { newestFirst } from '../../output/api-time.js';
import type { ProductRow } from '../../output/digest/product-text.js';
import { plain, safeLink } from '../../output/recall-text.js';
import { severityRank } from '../../output/severity-order.js';
// Matches, then possibles, then rows the matcher excluded (when it says so), then anything else: as match's tables.
import { levelRank } from '../matching/match-rows.js';

export function byReadingOrder(a: ProductRow, b: ProductRow): number {
  return (
    levelRank(a) - levelRank(b) ||
    severityRank({ risk_severity: a.risk_severity }) - severityRank({ risk_severity: b.risk_severity }) ||
    newestFirst(a.published_at, b.published_at) ||
    (b.recall_id ?? 0) - (a.recall_id ?? 0) ||
    a.catalog_line - b.catalog_line
  );
}

const text = (v: unknown): string | null => {
  const s = plain({ v }, 'v');
  return s === '' ? null : s;
};

/** A product row from a match row (`match -f json`'s shape), the recall it matched and the catalogue's columns. */
export function productRow(
  match: Record<string, unknown>,
  recall: Record<string, unknown>,
  columns: { key: string | undefined; name: string | undefined },
  values: Record<string, unknown>,
): ProductRow {
  const id = typeof recall.id === 'number' ? recall.id : null;
  return {
    level: String(match.level),
    reason: String(match.reason),
    key: columns.key === undefined ? null : text(values[columns.key]),
    key_column: columns.key ?? null,
    name: columns.name === undefined ? null : text(values[columns.name]),
    catalog_line: Number(match.catalog_line),
    recall_id: id,
    alert_title: text(recall.alert_title) ?? text(recall.product_name),
    risk_severity: text(recall.risk_severity),
    hazard: text(recall.hazard_description),
    data_source: text(recall.data_source),
    published_at: text(recall.published_at),
    source_url: safeLink(recall) ?? null,
    case: null,
    scope: typeof match.scope === 'string' ? match.scope : null,
    scope_evidence: text(match.scope_evidence),
  };
}
