// The scope invariant on thousands of generated notices: a row inside the scope a notice writes is never excluded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { GEO, type GeneratedCase, generatedCase } from '../fixtures/scope-notices.mjs';

const EAN = '3564709006031';

function level(c: GeneratedCase): string {
  const catalogue: Catalogue = {
    file: 'c.csv',
    headers: ['ean', 'lot', 'best_before'],
    columns: { gtin: 'ean', lot: 'lot', best_before: 'best_before' },
    rows: [{ line: 1, values: { ean: EAN, lot: c.lot ?? '', best_before: c.bb ?? '' } }],
    repeated: [],
  };
  const recall = {
    standard_identifiers_and_barcodes: [{ type: 'EAN', value: EAN }],
    geo_jurisdictions: [GEO[c.locale]],
    [c.field]: c.text,
  };
  return new CatalogueIndex(catalogue).match(recall)[0]?.level ?? 'none';
}

describe('generated notices (lists, ranges, open bounds, dates, tables, "all"; US/UK English, French, German, Spanish)', () => {
  it('a row whose lot or date the notice names, in any listed form, is never excluded', () => {
    // A fixed seed: the same 4,000 cases on every run, so that a failure reproduces (fast-check prints the case).
    fc.assert(
      fc.property(generatedCase, (c) => {
        if (c.inside) expect(level(c), `${c.text} | lot ${c.lot} | date ${c.bb}`).not.toBe('excluded');
      }),
      { numRuns: 4000, seed: 32 },
    );
  });

  it('the reader still proves what it fully understands: most rows outside a plain list or range are excluded', () => {
    const outside = fc.sample(
      generatedCase.filter((c) => !c.inside),
      { numRuns: 1000, seed: 33 },
    );
    const excluded = outside.filter((c) => level(c) === 'excluded').length;
    // Not a timing figure: a floor on what the reader proves, so that "never exclude" cannot pass for safety.
    expect(excluded / outside.length).toBeGreaterThan(0.5);
  });
});
