// The second real-notice corpus holds together (notices of three agencies traced to their sources, truth that refers only to what exists), and both corpora's tune/holdout split and held-out scoring are right.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECALL_FIELDS, SOURCE_IDS } from '../../src/api/constants.js';
import {
  convertAll,
  excelDate,
  FIELDS,
  htmlText,
  jsonLines,
  RAW_FILES,
  readRaw,
  upcsInText,
} from '../fixtures/real-notices-2/convert.mjs';
import {
  CORPORA,
  corpusFiles,
  FIXTURE_DIR,
  loadCatalogue,
  loadRecalls,
  loadSplit,
  loadTruth,
  partOf,
  rowsOfPart,
  SANDBOX_SOURCES,
  servable,
  scoreSubset,
  splitCsv,
  wilson,
} from '../fixtures/real-notices-2/quality.mjs';
import type { TruthRow } from '../fixtures/real-notices/quality.mjs';
import { expectRawFilesDocumented, expectTruthOfRows } from '../helpers/corpus-truth.js';

const recalls = loadRecalls(FIXTURE_DIR);
const truth = loadTruth(FIXTURE_DIR);
const catalogue = loadCatalogue(FIXTURE_DIR);
const readme = readFileSync(path.join(FIXTURE_DIR, 'README.md'), 'utf8');

/** GS1 check digit, written here again so the test does not lean on the code it may be checking. */
function validGtin(digits: string): boolean {
  if (![8, 12, 13, 14].includes(digits.length)) return false;
  let sum = 0;
  for (let i = 1; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 1 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
}

describe('the notices', () => {
  it('are at least 300, from three agencies, each with at least 50, with unique ids in their own million', () => {
    expect(recalls.length).toBeGreaterThanOrEqual(300);
    const sources = [...new Set(recalls.map((r) => r.data_source as string))].sort();
    expect(sources).toEqual(['ca_hc', 'us_fda_food', 'us_fsis']);
    const million = { us_fda_food: [3], us_fsis: [4], ca_hc: [6] } as Record<string, number[]>;
    for (const s of sources) {
      const of = recalls.filter((r) => r.data_source === s);
      expect(of.length, s).toBeGreaterThanOrEqual(50);
      for (const r of of) expect(million[s], `${s} ${r.id}`).toContain(Math.floor(r.id / 1e6));
    }
    expect(new Set(recalls.map((r) => r.id)).size).toBe(recalls.length);
    const geo = { us_fda_food: 'US', us_fsis: 'US', ca_hc: 'CA' } as Record<string, string>;
    for (const r of recalls) expect(r.geo_jurisdictions, String(r.id)).toEqual([geo[r.data_source]]);
  });

  it('each come from a raw record of a documented public source, under 1 MiB a file', () => {
    expectRawFilesDocumented(FIXTURE_DIR, Object.values(RAW_FILES), readme);
    // Every notice's case number is one of a raw record.
    const cases = new Set([
      ...readRaw(RAW_FILES.fda).records.map((r) => `${r['Event ID']}/${r['Product ID']}`),
      ...readRaw(RAW_FILES.fsis).records.map((r) =>
        r.langcode === 'Spanish' ? `${r.field_recall_number} (es)` : r.field_recall_number,
      ),
      ...readRaw(RAW_FILES.ca).records.map((r) => String(r.link).split('/').at(-1)),
    ]);
    for (const r of recalls) expect(cases.has(r.source_case_id), r.source_case_id).toBe(true);
    for (const r of recalls) {
      expect(r.source_url, String(r.id)).toMatch(
        /^https?:\/\/(www\.accessdata\.fda\.gov|www\.fsis\.usda\.gov|recalls-rappels\.canada\.ca)\//,
      );
    }
  });

  it("carry the API's recall fields in its order, and are served under a source the sandbox knows", () => {
    expect(FIELDS).toEqual([...RECALL_FIELDS]);
    expect(SANDBOX_SOURCES).toEqual([...SOURCE_IDS]);
    const served = servable(recalls);
    for (const r of served) expect(SOURCE_IDS as readonly string[]).toContain(r.data_source);
    // Only the source changes: the matcher sees the notice's own text.
    expect(served.map(({ data_source, ...rest }) => rest)).toEqual(recalls.map(({ data_source, ...rest }) => rest));
    for (const r of recalls) expect(Object.keys(r)).toEqual([...RECALL_FIELDS]);
  });

  it('are exactly what convert.mjs makes of the raw extracts (convert --check is up to date)', () => {
    expect(jsonLines(convertAll())).toBe(readFileSync(corpusFiles(FIXTURE_DIR).recalls, 'utf8'));
  });

  it('have their UPCs, dates and summaries read from the agencies’ own wording', () => {
    // Sentences of real FDA product descriptions: House of Flavors, The James Skinner, Lexunder, ZIYAD, Wegmans.
    expect(upcsInText('2248 Banana Pudding Ice Cream, 3 GAL, UPC 7 65265 81237 8')).toEqual(['765265812378']);
    expect(upcsInText('with wraparound label, UPC 0-41415-54691-2, Distributed By Publix')).toEqual(['041415546912']);
    expect(upcsInText('UPC: \n8 oz - 840374833268\n1 lb. - 840374812881')).toEqual(['840374833268', '840374812881']);
    expect(upcsInText('Baraka French Style Puff Pastry 1lb and 1.5lbs sizes, UPCs 8 22514 28540 3 and')).toEqual([
      '822514285403',
    ]);
    expect(upcsInText('UPC: 2-77580-XXXXX-7, where X is the unit price of the container')).toEqual([]);
    expect(upcsInText('Peach Salsa; UPC 85006540364 14oz (397g)')).toEqual([]);
    expect(upcsInText('EverRoast Chicken Caesar Salad 850042244142 Net Wt: 8.5 oz')).toEqual([]);
    // Excel counts days from 1899-12-30: day 45292 is 2024-01-01, 365 + 366 days later 2026-01-01 is day 46023.
    expect(excelDate(45292)).toBe('2024-01-01');
    expect(excelDate(46031)).toBe('2026-01-09');
    expect(htmlText('<p><strong>WASHINGTON</strong> &amp; more&nbsp;</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>')).toBe(
      'WASHINGTON & more\na\nb',
    );
  });
});

describe('the catalogue and its truth', () => {
  const skus = catalogue.map((row) => row.sku as string);
  const ids = new Set(recalls.map((r) => r.id as number));

  it('have one truth row per catalogue row, naming only recalls of the corpus', () => {
    expectTruthOfRows(skus, truth, ids);
  });

  it('hold at least 250 rows, rows of each agency and of each section, scope both ways, and neighbours', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(250);
    const recalled = skus.filter((s) => (truth.get(s)?.ids.size ?? 0) > 0);
    expect(skus.length - recalled.length).toBeGreaterThanOrEqual(80);
    const millions = new Set(recalled.flatMap((s) => [...(truth.get(s)?.ids ?? [])].map((id) => Math.floor(id / 1e6))));
    expect([...millions].sort()).toEqual([3, 4, 6]);
    expect(new Set(skus.map((s) => s.slice(0, 2)))).toEqual(new Set(['US', 'CA', 'RX']));
    expect([...truth.values()].filter((t) => t.scope === 'out-of-scope').length).toBeGreaterThanOrEqual(5);
    expect([...truth.values()].filter((t) => t.scope === 'in-scope').length).toBeGreaterThanOrEqual(10);
  });

  it('name FSIS’s Spanish notice wherever they name the English one it translates', () => {
    for (const [sku, t] of truth) {
      for (const id of t.ids) {
        if (id >= 4_000_000 && id < 4_500_000 && ids.has(id + 500_000)) expect(t.ids.has(id + 500_000), sku).toBe(true);
      }
    }
  });

  it('give no row that was never recalled a barcode of the corpus, or one with a wrong check digit', () => {
    const corpusGtins = new Set(
      recalls.flatMap((r) =>
        (r.standard_identifiers_and_barcodes as { value: string }[]).map((x) => x.value.padStart(14, '0')),
      ),
    );
    let checked = 0;
    for (const row of catalogue) {
      const digits = String(row.ean).replace(/\D/g, '');
      if (digits === '' || (truth.get(row.sku as string)?.ids.size ?? 0) > 0) continue;
      expect(validGtin(digits), `${row.sku} ${digits}`).toBe(true);
      expect(corpusGtins.has(digits.padStart(14, '0')), `${row.sku} ${digits}`).toBe(false);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(50);
  });
});

/** Parts worked out with sha256sum: the first 8 hex digits, odd or even. */
const SHA_PARTS: Record<string, string> = {
  3216285: 'holdout', // ed39255b
  3216286: 'tune', // 23d2790a
  4000002: 'holdout', // 918ed871
  6000001: 'tune', // 7fd4c13c
  1024222: 'tune', // 873ebaae
};

describe('the split', () => {
  it.each(Object.entries(CORPORA))('of %s covers every recall, by the documented hash rule', (_name, dir) => {
    const all = loadRecalls(dir);
    const split = loadSplit(dir);
    expect([...split.keys()].sort((a, b) => a - b)).toEqual(all.map((r) => r.id).sort((a, b) => a - b));
    expect(readFileSync(corpusFiles(dir).split, 'utf8')).toBe(splitCsv(all.map((r) => r.id)));
    // Each agency has notices in both parts, neither part under 30% of them (RappelConso's 27 split 18 / 9).
    const sources = new Set(all.map((r) => String(r.data_source).replace(/_food$/, '')));
    for (const s of sources) {
      const of = all.filter((r) => String(r.data_source).replace(/_food$/, '') === s);
      const tune = of.filter((r) => split.get(r.id) === 'tune').length;
      expect(tune / of.length, s).toBeGreaterThanOrEqual(0.3);
      expect(tune / of.length, s).toBeLessThanOrEqual(0.7);
    }
  });

  it('hashes SHA-256 of the id: values worked out with sha256sum', () => {
    // `printf 3216285 | sha256sum` starts ed39255b: odd, holdout; 23d2790a (3216286) even, tune; and so on.
    for (const [id, part] of Object.entries(SHA_PARTS)) expect(partOf(Number(id)), id).toBe(part);
    expect(partOf(4_500_002)).toBe(partOf(4_000_002));
  });

  it('puts a row in the part of all its notices, a row of both parts in neither, the others by sku', () => {
    const t = (ids: number[]): TruthRow => ({ ids: new Set(ids), scope: ids.length ? 'unknown' : '-', why: 'test' });
    const truthMap = new Map([
      ['A', t([1])],
      ['B', t([1, 2])],
      ['C', t([2])],
      ['D', t([])],
    ]);
    const split = new Map([
      [1, 'tune'],
      [2, 'holdout'],
    ]);
    const tune = rowsOfPart(truthMap, split, 'tune');
    const holdout = rowsOfPart(truthMap, split, 'holdout');
    expect(tune.straddling).toBe(1);
    expect(tune.skus.has('A') && !tune.skus.has('B') && !tune.skus.has('C')).toBe(true);
    expect(holdout.skus.has('C') && !holdout.skus.has('B')).toBe(true);
    // D goes by its sku's hash, to exactly one part.
    expect(Number(tune.skus.has('D')) + Number(holdout.skus.has('D'))).toBe(1);
  });
});

describe('held-out scoring', () => {
  it('scores only the subset’s rows and notices, counting a subset pair on another group’s row as wrong', () => {
    const t = (ids: number[], scope: string): TruthRow => ({ ids: new Set(ids), scope, why: 'test' });
    const truthMap = new Map([
      ['A', t([1], 'unknown')],
      ['B', t([2], 'unknown')], // concerns notice 2 only: outside the subset below
      ['C', t([], '-')],
      ['E', t([1], 'unknown')], // not in the subset's rows
    ]);
    const rows = [
      { level: 'match', reason: 'barcode', sku: 'A', recall_id: 1 }, // right
      { level: 'match', reason: 'barcode', sku: 'B', recall_id: 1 }, // wrong: B is not notice 1's
      { level: 'possible', reason: 'brand+name', sku: 'C', recall_id: 1 }, // wrong
      { level: 'match', reason: 'barcode', sku: 'B', recall_id: 2 }, // notice 2: outside the subset
      { level: 'match', reason: 'barcode', sku: 'E', recall_id: 1 }, // row outside the subset
    ];
    const result = scoreSubset(rows, truthMap, { skus: new Set(['A', 'B', 'C']), recallIds: new Set([1]) });
    const [match, matchOrPossible] = result.levels;
    expect(match).toMatchObject({ pairs: 2, right: 1, rowsFound: 1, rowsTotal: 1 });
    expect(matchOrPossible).toMatchObject({ pairs: 3, right: 1, rowsFound: 1, rowsTotal: 1 });
  });

  it('gives Wilson 95% intervals equal to values worked out by hand', () => {
    // 8 of 10: p = 0.8, z² = 3.8416, centre (0.8 + 0.19208) / 1.38416 = 0.71674,
    // half 1.96 × √(0.016 + 0.009604) / 1.38416 = 0.22658.
    const w = wilson(8, 10);
    expect(w?.low).toBeCloseTo(0.4902, 4);
    expect(w?.high).toBeCloseTo(0.9433, 4);
    // 0 of 5: denominator 1.76832, centre 0.38416 / 1.76832 = 0.21725, half 1.96 × 0.196 / 1.76832 = 0.21725.
    expect(wilson(0, 5)?.low).toBe(0);
    expect(wilson(0, 5)?.high).toBeCloseTo(0.4345, 4);
    // 10 of 10: centre 1.19208 / 1.38416 = 0.86123, half 1.96 × 0.098 / 1.38416 = 0.13877.
    expect(wilson(10, 10)?.low).toBeCloseTo(0.7225, 4);
    expect(wilson(10, 10)?.high).toBe(1);
    expect(wilson(0, 0)).toBeNull();
  });
});
