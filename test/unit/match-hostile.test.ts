// Notice text is hostile: huge fields of digits, labels and dates are read in bounded work, and evidence quotes are cut.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { recallCodes } from '../../src/match/recall-codes.js';
import { recallScope } from '../../src/match/scope.js';

const HUGE = 200_000;

describe('huge notice fields', () => {
  it('a field of spaced digits after "UPC", and a run ending in a slash, are read without a quadratic regex', () => {
    const recall = {
      product_description: `UPC ${'1 '.repeat(HUGE / 2)}/`,
      packaging_description: `${'1 2 '.repeat(HUGE / 4)}DDM ${'04/04/2021 '.repeat(2000)}`,
      standard_identifiers_and_barcodes: [`${'9 '.repeat(HUGE / 2)}Lot 1`],
    };
    // Garbage in, a few garbage codes out (each one only matches identical digits); the point is that it ends.
    expect(recallCodes(recall).length).toBeLessThan(10);
    const dates = recallScope(recall).filter((i) => i.kind === 'date');
    expect(dates.length).toBe(2000);
  });

  it("an identifier line's evidence is cut to 200 characters", () => {
    const line = `3564709006031 V028 Date de durabilité minimale 04/04/2021 ${'x'.repeat(HUGE)}`;
    const index = new CatalogueIndex({
      file: 'c.csv',
      headers: ['ean', 'lot'],
      columns: { gtin: 'ean', lot: 'lot' },
      rows: [{ line: 1, values: { ean: '3564709006031', lot: 'V031' } }],
      repeated: [],
    } satisfies Catalogue);
    const [m] = index.match({ standard_identifiers_and_barcodes: [line] });
    expect(m?.level).toBe('excluded');
    expect(m?.scopeEvidence).toBe(`standard_identifiers_and_barcodes: "${line.slice(0, 200)}…"`);
  });
});

describe('a huge title', () => {
  it('only its first line-length is read for the brand', async () => {
    const { titleBrandText } = await import('../../src/match/brands.js');
    const text = titleBrandText(`Target Recalls Cat & Jack ${'boots '.repeat(HUGE / 6)}`, 'Target');
    expect(text?.startsWith('cat jack boots')).toBe(true);
    expect((text ?? '').length).toBeLessThan(300);
  });
});
