// The digest's one count of your products, computed once from its rows: what the subject, the text, the HTML, the chat posts and the JSON all say.
import type { ProductCounts, ProductRow } from '../../output/digest/product-text.js';

/**
 * Pairs (a catalogue row and a recall) by level, as `match` counts its rows over the same recalls; catalogue rows
 * by their strongest pair still to act on: a row counts once, as a match if any of its pairs is one, and a row
 * whose every pair has a closed case counts as closed, not as matching.
 */
export function productCounts(
  products: readonly ProductRow[],
  period: { from: string; to: string },
  recallsChecked: number,
): ProductCounts {
  const pairs = { match: 0, possible: 0, excluded: 0 };
  let closedPairs = 0;
  const open = new Map<number, { match: boolean; serious: boolean }>();
  const touched = new Set<number>();
  for (const p of products) {
    if (p.level !== 'match' && p.level !== 'possible' && p.level !== 'excluded') continue;
    pairs[p.level]++;
    if (p.level === 'excluded') continue;
    touched.add(p.catalog_line);
    if (p.case?.status === 'closed') {
      closedPairs++;
      continue;
    }
    const row = open.get(p.catalog_line) ?? { match: false, serious: false };
    if (p.level === 'match') {
      row.match = true;
      row.serious ||= p.risk_severity === 'serious';
    }
    open.set(p.catalog_line, row);
  }
  const rows = [...open.values()];
  const match = rows.filter((r) => r.match);
  return {
    period,
    recalls_checked: recallsChecked,
    pairs: { ...pairs, closed: closedPairs },
    rows: {
      match: match.length,
      match_serious: match.filter((r) => r.serious).length,
      possible: rows.length - match.length,
      closed: touched.size - rows.length,
    },
  };
}
