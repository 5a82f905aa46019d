// Your products: the reading order (level, severity, newest) and the subject line that counts catalogue rows.
import { describe, expect, it } from 'vitest';
import { buildDigest } from '../../src/jobs/digest/digest-model.js';
import { digestSubject } from '../../src/output/digest/digest-view.js';
import { byReadingOrder } from '../../src/jobs/digest/your-products.js';
import { type ProductRow, productFacts, scopeNote } from '../../src/output/digest/product-text.js';
import { GOOD_HEALTH } from '../helpers/digest-health.js';

function row(line: number, level: string, severity: string | null, published: string): ProductRow {
  return {
    level,
    reason: level === 'match' ? 'gtin' : 'brand+name',
    key: `K${line}`,
    key_column: 'sku',
    name: `Product ${line}`,
    catalog_line: line,
    recall_id: 100 + line,
    alert_title: `Recall ${line}`,
    risk_severity: severity,
    hazard: null,
    data_source: 'us_cpsc',
    published_at: published,
    source_url: null,
    case: null,
    scope: 'unknown',
    scope_evidence: null,
  };
}

const digestOf = (products: ProductRow[] | null, complete = true) =>
  buildDigest({
    fromMs: Date.parse('2026-11-25T08:00:00Z'),
    toMs: Date.parse('2026-11-26T08:00:00Z'),
    stored: {
      new: Array.from({ length: 1236 }, (_, i) => ({ id: i + 1, risk_severity: i < 316 ? 'serious' : 'low' })),
      updated: [],
    },
    matches: products === null ? null : [],
    products,
    health: { ...GOOD_HEALTH, complete },
    sourcesChecked: true,
    settled: true,
  });

describe('your products', () => {
  it('orders matches before possibles before excluded, then worst severity, then newest', () => {
    const rows = [
      row(1, 'possible', 'serious', '2026-11-25T10:00:00Z'),
      row(2, 'match', 'low', '2026-11-25T12:00:00Z'),
      row(3, 'excluded', 'serious', '2026-11-25T12:00:00Z'),
      row(4, 'match', 'serious', '2026-11-25T09:00:00Z'),
      row(5, 'match', 'serious', '2026-11-25T11:00:00Z'),
      row(6, 'match', null, '2026-11-25T13:00:00Z'),
    ];
    expect([...rows].sort(byReadingOrder).map((r) => r.catalog_line)).toEqual([5, 4, 2, 6, 1, 3]);
  });

  it('the subject counts catalogue rows that match (and the serious ones), then the possibles, then the new recalls', () => {
    const rows = [
      row(1, 'match', 'serious', '2026-11-25T10:00:00Z'),
      // The same catalogue row matching a second recall counts once.
      { ...row(1, 'match', 'low', '2026-11-25T11:00:00Z'), recall_id: 999 },
      row(2, 'match', 'low', '2026-11-25T12:00:00Z'),
      row(3, 'match', 'high', '2026-11-25T12:00:00Z'),
      row(4, 'possible', 'low', '2026-11-25T12:00:00Z'),
      // A row that matches one recall and is possible for another is counted as matching.
      row(2, 'possible', 'low', '2026-11-25T12:00:00Z'),
    ];
    expect(digestSubject(digestOf(rows))).toBe(
      'Recalls 26 Nov: 3 of your products match (1 serious), 1 possible · 1,236 new · monitoring complete',
    );
    expect(digestSubject(digestOf([row(7, 'match', 'low', '2026-11-25T10:00:00Z')], false))).toBe(
      'Recalls 26 Nov: 1 of your products matches · 1,236 new · monitoring INCOMPLETE',
    );
    expect(digestSubject(digestOf([]))).toBe(
      'Recalls 26 Nov: none of your products match · 1,236 new · monitoring complete',
    );
    // Without a catalogue, nothing is said about products.
    expect(digestSubject(digestOf(null))).toBe('Recalls 26 Nov: 1,236 new (316 serious) · monitoring complete');
  });
});

describe('a row the notice scope could not settle', () => {
  it('says what to verify, as match wrote it; a row with nothing to verify says nothing of scope', () => {
    const evidence = 'verify lot, the catalogue row has no lot or date: product_description: "Lot 1234"';
    const verify = { ...row(1, 'match', 'serious', '2026-11-25T09:00:00'), scope_evidence: evidence };
    expect(productFacts(verify)).toBe(`serious · us_cpsc · match (gtin) · recall 101 · ${evidence}`);
    expect(scopeNote(verify)).toBe(evidence);
    expect(scopeNote(row(2, 'match', 'serious', '2026-11-25T09:00:00'))).toBeNull();
    const excluded = {
      ...row(3, 'excluded', null, '2026-11-25T09:00:00'),
      scope: 'out-of-scope',
      scope_evidence: 'x: "Lot 9"',
    };
    expect(scopeNote(excluded)).toBe('out of scope: x: "Lot 9"');
  });
});
