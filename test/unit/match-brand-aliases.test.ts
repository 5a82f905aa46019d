// Brand aliases (match --learn): the firms a notice names, the brands learned under them, and both matchers using them as a hint only.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AliasLearner, aliasLookup, MAX_BRANDS_PER_FIRM, namedBrands } from '../../src/match/brand-aliases.js';
import { noticeFirms } from '../../src/match/notice-firms.js';
import { readCatalogue } from '../../src/match/catalogue.js';
import { fitLearned, type Learned, parseLearned } from '../../src/match/learned.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { RecallIndex } from '../../src/match/recall-index.js';
import { readCensus, streamMatches } from '../../src/match/stream-matches.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;
const dir = tempDir('rf-aliases-');
const META = { at: '2026-11-28T00:00:00.000Z', sha256: 'x' };

// The CPSC's way of writing a retailer's own brand: the brand field and the title's firm name the retailer.
const CAT_AND_JACK: Rec = {
  product_brand: 'Target',
  alert_title: 'Target Recalls Cat & Jack Toddler Boots Due to Fall Hazard',
  product_name: 'Cat & Jack Toddler Boots',
  involved_parties: [
    { name: 'Target Corporation, of Minneapolis, Minnesota', role: 'importer', country: 'US' },
    { name: 'Target stores nationwide and online at Target.com', role: 'retailer', country: 'US' },
  ],
};
// A later notice from the same firm that names no brand but its own.
const LATER: Rec = {
  product_brand: 'Target',
  alert_title: 'Target Recalls Toddler Rain Boots Due to Slip Hazard',
  product_name: 'Toddler Rain Boots',
  product_model_numbers: ['TRB-2291'],
  involved_parties: [{ name: 'Target Corporation, of Minneapolis, Minnesota', role: 'importer', country: 'US' }],
};

async function catalogue(name: string, csv: string) {
  const file = path.join(dir, name);
  writeFileSync(file, csv);
  return { file, catalogue: await readCatalogue(file) };
}

function learnedFrom(index: CatalogueIndex, notices: readonly Rec[]): Learned {
  const learner = new AliasLearner();
  for (const n of notices) learner.notice(noticeFirms(n), namedBrands(index, n));
  return fitLearned([], META, learner.result().aliases);
}

describe('noticeFirms', () => {
  it('reads the brand field and the parties that make, import or distribute, never a retailer', () => {
    expect(
      noticeFirms({
        product_brand: 'Spectrum Brands Pet LLC',
        involved_parties: [
          { name: 'Spectrum Brands Pet LLC, of Middleton, Wisconsin', role: 'distributor' },
          { name: 'Online at Amazon.com, Chewy.com and Petsmart.com', role: 'retailer' },
        ],
      }),
    ).toEqual(['spectrum brands pet']);
  });

  it('names both sides of "dba", and the FDA\'s recalling firm when there is no brand field', () => {
    expect(
      noticeFirms({
        product_brand: '',
        involved_parties: [{ name: 'Silvestri Sweets Inc dba Carousel Candies', role: 'recalling firm' }],
      }),
    ).toEqual(['silvestri sweets', 'carousel candies']);
  });

  it('keeps a firm whole, without where it is or an aside: never split at its commas as a brand list', () => {
    const firms = (brand: string) => noticeFirms({ product_brand: brand });
    expect(firms('Airova Inc. of Newark, California')).toEqual(['airova']);
    expect(firms('Mameix Retail, Inc. of Canada')).toEqual(['mameix retail']);
    expect(firms('TTI Outdoor Power Equipment, Inc. (TTIOPE)')).toEqual(['tti outdoor power equipment']);
    expect(firms('Changzhou Xunchuang Home Furnishing Co., Ltd., dba Momok of China')).toEqual([
      'changzhou xunchuang home furnishing',
      'momok',
    ]);
    expect(firms('House of Tsang')).toEqual(['house of tsang']);
  });

  it('ignores parties that are not objects of strings (hostile input)', () => {
    expect(
      noticeFirms({ product_brand: 'Abbott', involved_parties: [null, 7, { name: 42, role: 'importer' }] }),
    ).toEqual(['abbott']);
  });
});

describe('learning aliases from notices and cases', () => {
  it('learns the brand a title names beside its firm, not the firm itself', async () => {
    const { catalogue: c } = await catalogue(
      'learn.csv',
      'sku,brand,name\nA,Cat & Jack,Toddler Rain Boots\nB,Target,Bath Towel\n',
    );
    const index = new CatalogueIndex(c);
    expect(namedBrands(index, CAT_AND_JACK)).toContain('cat jack');
    const learned = learnedFrom(index, [CAT_AND_JACK, LATER]);
    expect(learned.aliases).toEqual({ target: { 'cat jack': { notices: 1, cases: 0, wrong: 0 } } });
  });

  it('learns from a confirmed case whatever tied it, and leaves out a firm under too many brands', () => {
    const learner = new AliasLearner();
    learner.confirmed(['abbott'], ['similac']);
    learner.confirmed(['abbott'], ['abbott']);
    const brands = Array.from(
      { length: MAX_BRANDS_PER_FIRM + 1 },
      (_, i) => `house brand ${String.fromCharCode(97 + i)}`,
    );
    learner.notice(['bigmart'], brands);
    const { aliases, tooBroad } = learner.result();
    expect(aliases).toEqual({ abbott: { similac: { notices: 0, cases: 1, wrong: 0 } } });
    expect(tooBroad).toBe(1);
  });

  it('drops an alias that wrong cases deny as often as notices and right cases show it', () => {
    const learner = new AliasLearner();
    learner.notice(['target'], ['cat jack']);
    learner.refuted(['target'], ['cat jack']);
    learner.notice(['sunbeam'], ['oster']);
    learner.notice(['sunbeam'], ['oster']);
    learner.refuted(['sunbeam'], ['oster']);
    // A wrong case alone teaches no alias.
    learner.refuted(['abbott'], ['similac']);
    expect(learner.result().aliases).toEqual({ sunbeam: { oster: { notices: 2, cases: 0, wrong: 1 } } });
  });

  it('read back: keys normalised, bad evidence and over-broad firms dropped; a firm named like an Object key is a firm', () => {
    const nine = Object.fromEntries(
      Array.from({ length: MAX_BRANDS_PER_FIRM + 1 }, (_, i) => [`b${i}x`, { notices: 1, cases: 0, wrong: 0 }]),
    );
    const text = JSON.stringify({
      version: 1,
      tiers: {},
      words: {},
      aliases: {
        'Abbott Laboratories Inc.': {
          'Similac®': { notices: 0, cases: 2, wrong: 0 },
          Denied: { notices: 1, cases: 0, wrong: 1 },
        },
        Broad: nine,
        Constructor: { 'Hasownproperty Foods': { notices: 1, cases: 0, wrong: 0 } },
      },
    });
    const parsed = parseLearned(text);
    // Evidence whose counts are no counts is no file --learn wrote (test/unit/learned-file-counts.test.ts).
    expect(parseLearned(text.replace('"Denied"', '"Bad":{"notices":-1,"cases":"x"},"Denied"'))).toBeUndefined();
    expect(Object.keys(parsed?.aliases ?? {}).sort()).toEqual(['abbott laboratories', 'constructor']);
    expect(parsed?.aliases?.['abbott laboratories']).toEqual({ similac: { notices: 0, cases: 2, wrong: 0 } });
    const lookup = aliasLookup(parsed?.aliases);
    expect(lookup?.get('abbott laboratories')).toEqual(['similac']);
    expect(lookup?.get('constructor')).toEqual(['hasownproperty foods']);
    // A firm the file does not name finds nothing, whatever Object's own keys are.
    expect(lookup?.get('tostring')).toBeUndefined();
  });
});

describe('matching with learned aliases', () => {
  const csv =
    'sku,brand,name,model\nA,Cat & Jack,Toddler Rain Boots,\nM,Cat & Jack,Rain Boots Navy,TRB-2291\nB,Other,Toddler Rain Boots,\n';

  it('a later notice from the firm finds the brand it recalls under: possible only, even on the full name or a model', async () => {
    const { catalogue: c } = await catalogue('match.csv', csv);
    const learned = learnedFrom(new CatalogueIndex(c), [CAT_AND_JACK]);
    expect(new CatalogueIndex(c).match(LATER).filter((m) => m.row.values.sku !== 'M')).toEqual([]);
    const found = new CatalogueIndex(c, { learned }).match(LATER, { explain: true });
    const bySku = new Map(found.map((m) => [m.row.values.sku, m]));
    expect(bySku.get('A')).toMatchObject({ level: 'possible', reason: 'brand+name' });
    expect(bySku.get('A')?.explain).toContain('as match --learn learned it');
    // The same model beside an alias is a hint, not the same brand.
    expect(bySku.get('M')).toMatchObject({ level: 'possible', reason: 'model' });
    // Another brand with the same name is not touched by the alias.
    expect(bySku.has('B')).toBe(false);
  });

  it("stays possible when the user's closed cases promoted its tier: a tier is measured on brands, not on hints", async () => {
    const { file, catalogue: c } = await catalogue('promoted.csv', csv);
    const aliases = learnedFrom(new CatalogueIndex(c), [CAT_AND_JACK]).aliases;
    // 500 right cases of each tier and none wrong: both tiers promoted to match.
    const promoted = { confirmed: 500, wrong: 0, lower: 0.99, level: 'match' as const };
    const learned: Learned = {
      ...fitLearned([], META, aliases),
      tiers: { 'brand+name': promoted, model: promoted },
    };
    const found = new CatalogueIndex(c, { learned }).match(LATER);
    expect(found.map((m) => [m.row.values.sku, m.level, m.reason])).toEqual([
      ['M', 'possible', 'model'],
      ['A', 'possible', 'brand+name'],
    ]);
    // The same brand on a similar name is what the tier was measured on: promoted.
    const same: Rec = { ...LATER, product_brand: 'Cat & Jack', product_model_numbers: [] };
    expect(new CatalogueIndex(c, { learned }).match(same).map((m) => [m.row.values.sku, m.level])).toContainEqual([
      'A',
      'match',
    ]);
    // Streamed, the same levels.
    const index = new RecallIndex(aliasLookup(aliases));
    index.add(LATER);
    const read = await readCensus(file, {}, index);
    const levels: unknown[] = [];
    for await (const batch of streamMatches(read, index, { learned }))
      for (const { match } of batch) levels.push([match.row.values.sku, match.level]);
    expect(levels.sort()).toEqual([
      ['A', 'possible'],
      ['M', 'possible'],
    ]);
  });

  it('the streamed catalogue gives what the in-memory one gives', async () => {
    const { file, catalogue: c } = await catalogue('stream.csv', csv);
    const learned = learnedFrom(new CatalogueIndex(c), [CAT_AND_JACK]);
    const full = new CatalogueIndex(c, { learned });
    const expected = [CAT_AND_JACK, LATER].flatMap((r, i) =>
      full.match(r, { explain: true }).map((m) => [i, m.row.line, m.level, m.reason, m.explain]),
    );
    const index = new RecallIndex(aliasLookup(learned.aliases));
    index.add(CAT_AND_JACK);
    index.add(LATER);
    const read = await readCensus(file, {}, index);
    const got: unknown[][] = [];
    for await (const batch of streamMatches(read, index, { explain: true, learned }))
      for (const { recall, match } of batch)
        got.push([recall.order, match.row.line, match.level, match.reason, match.explain]);
    const order = (a: unknown[], b: unknown[]) =>
      (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number);
    expect(got.sort(order)).toEqual(expected.sort(order));
    expect(got.some((g) => String(g[4]).includes('match --learn'))).toBe(true);
  });
});
