// The e-mail's parts stay within their budget whatever the catalogue: matches first, possibles as they fit, then counted.
import { describe, expect, it } from 'vitest';
import { buildDigest } from '../../src/jobs/digest/digest-model.js';
import { digestHtml } from '../../src/output/digest/digest-html.js';
import { digestText } from '../../src/output/digest/digest-text.js';
import type { ProductRow } from '../../src/output/digest/product-text.js';
import { GOOD_HEALTH } from '../helpers/digest-health.js';

function row(line: number, level: string): ProductRow {
  return {
    level,
    reason: level === 'match' ? 'gtin' : 'brand+name',
    key: `K${line}`,
    key_column: 'sku',
    name: `Product ${line} ${'x'.repeat(60)}`,
    catalog_line: line,
    recall_id: 100 + line,
    alert_title: `Recall ${line} ${'y'.repeat(120)}`,
    risk_severity: 'serious',
    hazard: 'z'.repeat(140),
    data_source: 'us_cpsc',
    published_at: '2026-11-25T10:00:00Z',
    source_url: `https://example.org/recalls/${line}`,
    case: null,
    scope: null,
    scope_evidence: null,
  };
}

// 12 matches, then 3,000 possibles: about 1.3 MB of product lines unbounded.
const products = [
  ...Array.from({ length: 12 }, (_, i) => row(i + 1, 'match')),
  ...Array.from({ length: 3000 }, (_, i) => row(i + 13, 'possible')),
];
const digest = buildDigest({
  fromMs: Date.parse('2026-11-25T08:00:00Z'),
  toMs: Date.parse('2026-11-26T08:00:00Z'),
  stored: { new: Array.from({ length: 40 }, (_, i) => ({ id: i + 1, alert_title: `R${i}` })), updated: [] },
  matches: [],
  products,
  health: GOOD_HEALTH,
  sourcesChecked: true,
  settled: true,
});
const budget = { maxBytes: 100_000, attachment: 'recalls-2026-11-26.csv' };

describe("the e-mail's parts with thousands of possible matches", () => {
  for (const [name, render] of [
    ['text', () => digestText(digest, 72, budget)],
    ['html', () => digestHtml(digest, budget)],
  ] as const) {
    it(`${name}: under 100,000 bytes, every match named, the possibles left out counted`, () => {
      const out = render();
      expect(Buffer.byteLength(out)).toBeLessThanOrEqual(100_000);
      for (let line = 1; line <= 12; line++) expect(out).toContain(`K${line} · Product ${line} `);
      const shown = products.filter((p) => p.level === 'possible' && out.includes(`K${p.catalog_line} · Product`));
      expect(shown.length).toBeLessThan(3000);
      const more = /… and ([\d,]+) more pairs of a row and a recall \(([\d,]+) possible\)/.exec(out);
      expect(Number(more?.[1]?.replace(/,/g, ''))).toBe(3000 - shown.length);
    });
  }
});

describe('a cut list of recalls ends what the e-mail parts show, in text and HTML alike', () => {
  // 300 long new recalls (about 90 KB) then 50 short updated ones: the new list is cut; the updated would fit.
  const long = (i: number) => ({ id: i, alert_title: `New recall ${i} ${'n'.repeat(300)}` });
  const short = (i: number) => ({ id: 1000 + i, alert_title: `Upd ${i}` });
  const cut = buildDigest({
    fromMs: Date.parse('2026-11-25T08:00:00Z'),
    toMs: Date.parse('2026-11-26T08:00:00Z'),
    stored: {
      new: Array.from({ length: 300 }, (_, i) => long(i + 1)),
      updated: Array.from({ length: 50 }, (_, i) => short(i + 1)),
    },
    matches: [],
    products: [],
    health: GOOD_HEALTH,
    sourcesChecked: true,
    settled: true,
  });
  const small = { maxBytes: 40_000, attachment: 'recalls.csv' };
  for (const [name, render] of [
    ['text', () => digestText(cut, 72, small)],
    ['html', () => digestHtml(cut, small)],
  ] as const) {
    it(`${name}: some new recalls, no updated one, and every recall not shown counted`, () => {
      const out = render();
      const newShown = (out.match(/New recall \d+ /g) ?? []).length;
      expect(newShown).toBeGreaterThan(0);
      expect(newShown).toBeLessThan(300);
      expect(out).not.toMatch(/Upd \d+/);
      expect(out).toContain(`and ${300 - newShown + 50} more recalls`);
    });
  }
});
