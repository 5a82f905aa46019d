// The third real-notice corpus holds together: new FSIS notices traced to their source, none already in real-notices-2, truth that refers only to what exists, and its split by the shared rule.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECALL_FIELDS, SOURCE_IDS } from '../../src/api/constants.js';
import {
  convertAll,
  FIELDS,
  FSIS_SPANISH,
  ID_BASE,
  isSpanish,
  jsonLines,
  RAW_FILES,
  readRaw,
  recallNumber,
} from '../fixtures/real-notices-3/convert.mjs';
import {
  CORPORA,
  corpusFiles,
  loadCatalogue,
  loadRecalls,
  loadSplit,
  loadTruth,
  partOf,
  servable,
  splitCsv,
} from '../fixtures/real-notices-2/quality.mjs';
import { expectRawFilesDocumented, expectTruthOfRows } from '../helpers/corpus-truth.js';

const DIR = CORPORA['real-notices-3'];
const recalls = loadRecalls(DIR);
const truth = loadTruth(DIR);
const catalogue = loadCatalogue(DIR);
const readme = readFileSync(path.join(DIR, 'README.md'), 'utf8');
const english = recalls.filter((r) => r.id < ID_BASE.us_fsis + FSIS_SPANISH);
const spanish = recalls.filter((r) => r.id >= ID_BASE.us_fsis + FSIS_SPANISH);

/** GS1 check digit, written here again so the test does not lean on the code it may be checking. */
function validGtin(digits: string): boolean {
  if (![8, 12, 13, 14].includes(digits.length)) return false;
  let sum = 0;
  for (let i = 1; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 1 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
}

/** An FSIS case number without the Spanish mark and stray spaces: the recall it belongs to. */
const recallOf = (caseId: string) => caseId.replace(/ \(es\)$/, '').trim();

describe('the notices', () => {
  it('are at least 60 English FSIS notices with their Spanish twins, ids in 4,1xx,xxx and 4,6xx,xxx', () => {
    expect(english.length).toBeGreaterThanOrEqual(60);
    expect(new Set(recalls.map((r) => r.id)).size).toBe(recalls.length);
    for (const r of recalls) {
      expect(r.data_source, String(r.id)).toBe('us_fsis');
      expect(r.geo_jurisdictions, String(r.id)).toEqual(['US']);
    }
    for (const r of english) expect(Math.floor(r.id / 100_000), String(r.id)).toBe(41);
    for (const r of spanish) expect(Math.floor(r.id / 100_000), String(r.id)).toBe(46);
    const byId = new Map(recalls.map((r) => [r.id, r]));
    for (const r of spanish) {
      const twin = byId.get(r.id - FSIS_SPANISH);
      expect(twin, String(r.id)).toBeDefined();
      expect(r.source_case_id).toBe(`${twin?.source_case_id} (es)`);
    }
  });

  it('are new: no recall number of real-notices-2 is here again', () => {
    const before = new Set(loadRecalls(CORPORA['real-notices-2']).map((r) => recallOf(String(r.source_case_id))));
    expect(before.size).toBeGreaterThan(50);
    for (const r of recalls) expect(before.has(recallOf(String(r.source_case_id))), r.source_case_id).toBe(false);
  });

  it('each come from a raw record of a documented public source, under 1 MiB a file', () => {
    expectRawFilesDocumented(DIR, Object.values(RAW_FILES), readme);
    const cases = new Set(
      readRaw(RAW_FILES.fsis).records.map((r) => (isSpanish(r) ? `${recallNumber(r)} (es)` : recallNumber(r))),
    );
    expect(cases.size).toBe(recalls.length);
    for (const r of recalls) expect(cases.has(r.source_case_id), r.source_case_id).toBe(true);
    // The staged copy has a URL only where its title was found in the RSS feed; none is made up.
    for (const r of recalls) expect(r.source_url, String(r.id)).toMatch(/^$|^https?:\/\/www\.fsis\.usda\.gov\//);
  });

  it("carry the API's recall fields in its order, and are served under a source the sandbox knows", () => {
    expect(FIELDS).toEqual([...RECALL_FIELDS]);
    for (const r of recalls) expect(Object.keys(r)).toEqual([...RECALL_FIELDS]);
    const served = servable(recalls);
    for (const r of served) expect(SOURCE_IDS as readonly string[]).toContain(r.data_source);
    expect(served.map(({ data_source, ...rest }) => rest)).toEqual(recalls.map(({ data_source, ...rest }) => rest));
  });

  it('are exactly what convert.mjs makes of the raw extract (convert --check is up to date)', () => {
    expect(jsonLines(convertAll())).toBe(readFileSync(corpusFiles(DIR).recalls, 'utf8'));
  });

  it('tell a Spanish notice by its title, as FSIS words them', () => {
    // Titles of real notices in the extract: Valley Meats' recall in both languages, and an English alert.
    expect(isSpanish({ title: 'Valley Meats, LLC, Retira Productos De Carne De Res Molida' })).toBe(true);
    expect(isSpanish({ title: 'Valley Meats, LLC, Recalls Ground Beef Products' })).toBe(false);
    expect(isSpanish({ title: 'FSIS Issues Public Health Alert for Pork Carnitas Products' })).toBe(false);
    expect(recallNumber({ notice_id_number: ' 034-2024' })).toBe('034-2024');
    // Every pair the extract holds under one recall number is one English and one Spanish notice.
    const perNumber = new Map<string, boolean[]>();
    for (const r of readRaw(RAW_FILES.fsis).records) {
      perNumber.set(recallNumber(r), [...(perNumber.get(recallNumber(r)) ?? []), isSpanish(r)]);
    }
    for (const [n, langs] of perNumber) expect(langs.filter((es) => !es).length, n).toBe(1);
  });
});

describe('the catalogue and its truth', () => {
  const skus = catalogue.map((row) => row.sku as string);
  const byId = new Map(recalls.map((r) => [r.id as number, r]));

  it('have one truth row per catalogue row, naming only recalls of the corpus', () => {
    expectTruthOfRows(skus, truth, new Set(byId.keys()));
  });

  it('hold at least 150 rows, a third of them never recalled, scope both ways, and most notices concerned', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(150);
    const recalled = skus.filter((s) => (truth.get(s)?.ids.size ?? 0) > 0);
    expect((skus.length - recalled.length) / skus.length).toBeGreaterThanOrEqual(0.3);
    expect([...truth.values()].filter((t) => t.scope === 'out-of-scope').length).toBeGreaterThanOrEqual(15);
    expect([...truth.values()].filter((t) => t.scope === 'in-scope').length).toBeGreaterThanOrEqual(30);
    const named = new Set([...truth.values()].flatMap((t) => [...t.ids]).filter((id) => id < 4_600_000));
    expect(named.size).toBeGreaterThanOrEqual(60);
    for (const row of catalogue) expect(row.sku as string).toMatch(/^US-6\d{4}$/);
    for (const row of catalogue) expect(row.best_before as string, row.sku as string).toMatch(/^$|^\d\d\/\d\d\/\d{4}$/);
  });

  it('name FSIS’s Spanish notice wherever they name the English one it translates', () => {
    for (const [sku, t] of truth) {
      for (const id of t.ids) {
        if (id < 4_600_000 && byId.has(id + FSIS_SPANISH)) expect(t.ids.has(id + FSIS_SPANISH), sku).toBe(true);
        if (id >= 4_600_000) expect(t.ids.has(id - FSIS_SPANISH), sku).toBe(true);
      }
    }
  });

  it('give a recalled row only a barcode its notice prints, and a row never recalled a valid barcode of no corpus', () => {
    const gtins = (list: Record<string, any>[]) =>
      new Set(list.flatMap((r) => (r.standard_identifiers_and_barcodes as { value: string }[]).map((x) => x.value)));
    const everyCorpus = new Set(
      Object.values(CORPORA).flatMap((dir) => [...gtins(loadRecalls(dir))].map((v) => v.padStart(14, '0'))),
    );
    let invented = 0;
    let printed = 0;
    for (const row of catalogue) {
      const digits = String(row.ean).replace(/\D/g, '');
      const t = truth.get(row.sku as string);
      if (digits === '' || !t) continue;
      if (t.ids.size > 0) {
        const own = [...gtins([...t.ids].map((id) => byId.get(id) as Record<string, any>))].map((v) =>
          v.padStart(14, '0'),
        );
        expect(own, `${row.sku} ${digits}`).toContain(digits.padStart(14, '0'));
        printed++;
      } else {
        expect(validGtin(digits), `${row.sku} ${digits}`).toBe(true);
        expect(everyCorpus.has(digits.padStart(14, '0')), `${row.sku} ${digits}`).toBe(false);
        invented++;
      }
    }
    expect(printed).toBeGreaterThanOrEqual(3);
    expect(invented).toBeGreaterThanOrEqual(50);
  });
});

/** Parts worked out with sha256sum: the first 8 hex digits, odd or even. */
const SHA_PARTS: Record<string, string> = {
  4100001: 'holdout', // c0817d55
  4100002: 'holdout', // bdd5d457
  4100036: 'tune', // 7041bd00
  4100080: 'holdout', // cc833145
};

describe('the split', () => {
  it('covers every recall by the shared hash rule, a recall and its Spanish twin in one part', () => {
    const split = loadSplit(DIR);
    expect([...split.keys()].sort((a, b) => a - b)).toEqual(recalls.map((r) => r.id).sort((a, b) => a - b));
    expect(readFileSync(corpusFiles(DIR).split, 'utf8')).toBe(splitCsv(recalls.map((r) => r.id)));
    for (const [id, part] of Object.entries(SHA_PARTS)) expect(split.get(Number(id)), id).toBe(part);
    for (const r of spanish) expect(split.get(r.id), String(r.id)).toBe(split.get(r.id - FSIS_SPANISH));
    expect(partOf(4_600_036)).toBe('tune');
    const tune = english.filter((r) => split.get(r.id) === 'tune').length;
    expect(tune / english.length).toBeGreaterThanOrEqual(0.3);
    expect(tune / english.length).toBeLessThanOrEqual(0.7);
  });
});
