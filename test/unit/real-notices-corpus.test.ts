// The real-notice corpus holds together: enough real notices from two agencies, each traced to its public source, and a truth file that refers only to what exists.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECALL_FIELDS } from '../../src/api/constants.js';
import {
  convertAll,
  cpscDescriptionUpcs,
  cpscModelNumbers,
  FIELDS,
  jsonLines,
} from '../fixtures/real-notices/convert.mjs';
import {
  CATALOGUE,
  FIXTURE_DIR,
  RECALLS,
  loadRecalls,
  loadTruth,
  readCsvFile,
  score,
  type TruthRow,
} from '../fixtures/real-notices/quality.mjs';
import { expectTruthOfRows } from '../helpers/corpus-truth.js';

const recalls = loadRecalls();
const truth = loadTruth();
const catalogue = readCsvFile(CATALOGUE);
const readme = readFileSync(path.join(FIXTURE_DIR, 'README.md'), 'utf8');

function raw(name: string): { source: Record<string, string>; records: Record<string, any>[] } {
  return JSON.parse(readFileSync(path.join(FIXTURE_DIR, 'raw', name), 'utf8'));
}
const RAW_FILES = [
  'cpsc-recalls-recallsatlas-2023-2025.json',
  'cpsc-recalls-recallsatlas-2026.json',
  'rappelconso-v2-staubdevlab.json',
  'rappelconso-v2-openfoodfacts.json',
];

/** The agency behind a feed source: RappelConso publishes both general and food products. */
const agency = (source: string) => (source.startsWith('rappel_conso') ? 'RappelConso' : source);

/** GS1 check digit, written here again so the test does not lean on the code it may be checking. */
function validGtin(digits: string): boolean {
  if (![8, 12, 13, 14].includes(digits.length)) return false;
  let sum = 0;
  for (let i = 1; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 1 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
}

describe('the notices', () => {
  it('are at least 300, from at least two agencies, with unique ids', () => {
    expect(recalls.length).toBeGreaterThanOrEqual(300);
    const agencies = new Set(recalls.map((r) => agency(r.data_source)));
    expect([...agencies].sort()).toEqual(['RappelConso', 'us_cpsc']);
    for (const a of agencies) expect(recalls.filter((r) => agency(r.data_source) === a).length).toBeGreaterThan(20);
    expect(new Set(recalls.map((r) => r.id)).size).toBe(recalls.length);
  });

  it('each come from a raw record of a documented public source', () => {
    const sources = new Map<string, { file: string; commit: string; repository: string }>();
    for (const file of RAW_FILES) {
      const { source, records } = raw(file);
      expect(source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      // The README names every raw file, its repository and the commit(s) it was read at.
      expect(readme).toContain(file);
      expect(readme).toContain(source.repository);
      for (const r of records) {
        const commit = String(r._commit ?? source.commit);
        expect(commit).toMatch(/^[0-9a-f]{40}$/);
        expect(readme).toContain(commit);
        const key = r.RecallNumber !== undefined ? `us_cpsc ${r.RecallNumber}` : `rappel_conso ${r.numero_fiche}`;
        sources.set(key, { file, commit, repository: String(source.repository) });
      }
    }
    for (const r of recalls) {
      const key = `${agency(r.data_source) === 'us_cpsc' ? 'us_cpsc' : 'rappel_conso'} ${r.source_case_id}`;
      expect(sources.get(key), key).toBeDefined();
      expect(r.source_url, key).toMatch(/^https:\/\/(www\.)?(cpsc\.gov|rappel\.conso\.gouv\.fr)\//);
    }
  });

  it("carry the API's recall fields in its order (convert.mjs keeps a copy, as it runs without a build)", () => {
    expect(FIELDS).toEqual([...RECALL_FIELDS]);
  });

  it('are exactly what convert.mjs makes of the raw extracts', () => {
    expect(jsonLines(convertAll())).toBe(readFileSync(RECALLS, 'utf8'));
  });

  it('have their model and UPC lists read from the CPSC wording, sentence by sentence', () => {
    // Sentences of real notices: Crate & Barrel 26059, FUNTOK 26348, Calico Brands 26006, Mindbodygreen 26221.
    const crate =
      'This recall involves Crate & Barrel Ana Dining Chairs with SKU numbers: 108-976, 109-100, 109-117, 109-123, 121-287, 436-035, 436-074, 436-096, 436-123, 686-763, 686-774, 387-127, 387-135, 387-141 and 387-166. The SKU is located on the underside of the chair seat. The recall does not apply to chair models sold after January 23, 2025.';
    expect(cpscModelNumbers(crate)).toHaveLength(15);
    expect(cpscModelNumbers(crate)).toContain('387-166');
    expect(
      cpscModelNumbers(
        'This recall involves FUNTOK 24V 2-Seater Ride-On Trucks, model number DLS-K03. The trucks were sold in red, black, white and pink.',
      ),
    ).toEqual(['DLS-K03']);
    expect(cpscModelNumbers('The model number is located underneath the seat cushion.')).toEqual([]);
    expect(cpscDescriptionUpcs('The UPC number "0-70257-52226-6" is printed on the back of the product box.')).toEqual([
      '070257522266',
    ]);
    expect(
      cpscDescriptionUpcs(
        'UPC Lot Number Manufacturing Date 850027975177 0515I1 09/2021 0130B2 01/2022 0187I2 08/2022',
      ),
    ).toEqual(['850027975177']);
  });
});

describe('the catalogue and its truth', () => {
  const skus = catalogue.map((row) => row.sku as string);
  const ids = new Set(recalls.map((r) => r.id as number));

  it('have one truth row per catalogue row, naming only recalls of the corpus', () => {
    expectTruthOfRows(skus, truth, ids);
  });

  it('cover 80-140 recalled rows and at least as many rows never recalled, in both sections', () => {
    const recalled = skus.filter((s) => (truth.get(s)?.ids.size ?? 0) > 0);
    const never = skus.length - recalled.length;
    expect(recalled.length).toBeGreaterThanOrEqual(80);
    expect(recalled.length).toBeLessThanOrEqual(140);
    expect(never).toBeGreaterThanOrEqual(recalled.length);
    const sources = new Set(recalled.flatMap((s) => [...(truth.get(s)?.ids ?? [])].map((id) => Math.floor(id / 1e6))));
    expect([...sources].sort()).toEqual([1, 2]);
    // Lot and date scope is exercised both ways.
    expect([...truth.values()].filter((t) => t.scope === 'out-of-scope').length).toBeGreaterThanOrEqual(5);
    expect([...truth.values()].filter((t) => t.scope === 'in-scope').length).toBeGreaterThanOrEqual(10);
  });

  it('give no row that was never recalled a barcode of the corpus', () => {
    const corpusGtins = new Set(
      recalls.flatMap((r) =>
        (r.standard_identifiers_and_barcodes as { value: string }[]).map((x) => x.value.padStart(14, '0')),
      ),
    );
    for (const row of catalogue) {
      const digits = String(row.ean).replace(/\D/g, '');
      if (digits === '' || (truth.get(row.sku as string)?.ids.size ?? 0) > 0) continue;
      expect(validGtin(digits), `${row.sku} ${digits}`).toBe(true);
      expect(corpusGtins.has(digits.padStart(14, '0')), `${row.sku} ${digits}`).toBe(false);
    }
  });
});

describe('the scoring', () => {
  it('counts right pairs, affected rows found, and out-of-scope rows per level', () => {
    const t = (ids: number[], scope: string): TruthRow => ({ ids: new Set(ids), scope, why: 'test' });
    const truth = new Map([
      ['A', t([1], 'unknown')],
      ['B', t([2], 'in-scope')],
      ['C', t([3], 'out-of-scope')],
      ['D', t([], '-')],
    ]);
    const rows = [
      { level: 'match', reason: 'barcode', sku: 'A', recall_id: 1 }, // right
      { level: 'match', reason: 'barcode', sku: 'C', recall_id: 3 }, // over-pulled: wrong
      { level: 'possible', reason: 'model', sku: 'B', recall_id: 9 }, // wrong recall
      { level: 'possible', reason: 'brand+name', sku: 'D', recall_id: 2 }, // never recalled
      { level: 'excluded', reason: 'barcode', sku: 'C', recall_id: 3 }, // right
    ];
    const result = score(rows, truth);
    const [match, matchOrPossible, excluded] = result.levels;
    expect(match).toMatchObject({ pairs: 2, right: 1, precision: 0.5, rowsFound: 1, rowsTotal: 2, rowRecall: 0.5 });
    expect(matchOrPossible).toMatchObject({ pairs: 4, right: 1, precision: 0.25, rowsFound: 1, rowsTotal: 2 });
    expect(excluded).toMatchObject({ pairs: 1, right: 1, precision: 1, rowsFound: 1, rowsTotal: 1, rowRecall: 1 });
    expect(result.overPulled).toBe(1);
    expect(result.missed).toEqual(['B']);
    expect(result.reasons.map((r) => `${r.level} ${r.reason} ${r.right}/${r.pairs}`)).toEqual([
      'excluded barcode 1/1',
      'match barcode 1/2',
      'possible brand+name 0/1',
      'possible model 0/1',
    ]);
  });
});
