// The streamed catalogue (recall index, census pass, match pass) gives the rows, levels, scopes, explain text and counts
// of the whole catalogue held in memory (CatalogueIndex), on generated catalogues and on the real-notice corpora.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalogue } from '../../src/match/catalogue.js';
import { nameTokens } from '../../src/match/match-keys.js';
import { LEVEL_RANK, RANK, type Match } from '../../src/match/match-levels.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { brandParts } from '../../src/match/brands.js';
import { RecallIndex } from '../../src/match/recall-index.js';
import { readCensus, streamMatches } from '../../src/match/stream-matches.js';
import { generatedCatalogue, generatedRecalls } from '../helpers/match-generated.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;
const dir = tempDir('rf-match-stream-');

const view = (recall: number, m: Match) => ({
  recall,
  line: m.row.line,
  level: m.level,
  reason: m.reason,
  scope: m.scope,
  scopeEvidence: m.scopeEvidence,
  excludedOn: m.excludedOn,
  nameWords: m.nameWords,
  explain: m.explain,
});

async function inMemory(file: string, recalls: readonly Rec[]) {
  const catalogue = await readCatalogue(file);
  const index = new CatalogueIndex(catalogue);
  const rows = recalls.flatMap((recall, i) => index.match(recall, { explain: true }).map((m) => view(i, m)));
  const unchecked = index.rejected.filter((r) => r.unchecked).length;
  return {
    catalogue,
    rows,
    counts: { rows: catalogue.rows.length, rejected: index.rejected.length - unchecked, unchecked },
  };
}

async function streamed(file: string, recalls: readonly Rec[]) {
  const index = new RecallIndex();
  for (const r of recalls) index.add(r);
  const read = await readCensus(file, {}, index);
  const found: ReturnType<typeof view>[] = [];
  for await (const batch of streamMatches(read, index, { explain: true }))
    for (const { recall, match } of batch) found.push(view(recall.order, match));
  // As found: catalogue order, and the recalls' order within a row.
  const asFound = found.map((f) => [f.line, f.recall]);
  const sortedFound = [...asFound].sort(
    (a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number),
  );
  // match's documented order (what the spool writes): per recall, by level, by reason, by catalogue line.
  const rows = [...found].sort(
    (a, b) =>
      a.recall - b.recall ||
      LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
      RANK[a.reason] - RANK[b.reason] ||
      a.line - b.line,
  );
  const { census } = read;
  return {
    read,
    rows,
    asFound,
    sortedFound,
    counts: { rows: census.rows, rejected: census.rejectedTotal, unchecked: census.uncheckedTotal },
  };
}

/** Same rows, same order, same counts; and the matches were of every kind, so the comparison covered them. */
async function expectSame(file: string, recalls: readonly Rec[]) {
  const full = await inMemory(file, recalls);
  const stream = await streamed(file, recalls);
  expect(stream.asFound).toEqual(stream.sortedFound);
  expect(stream.counts).toEqual(full.counts);
  expect(stream.rows.length).toBe(full.rows.length);
  expect(stream.rows).toEqual(full.rows);
  expect(stream.read.headers).toEqual(full.catalogue.headers);
  expect(stream.read.columns).toEqual(full.catalogue.columns);
  expect(stream.read.repeated).toEqual(full.catalogue.repeated);
  expect(stream.read.sha256).toBe(full.catalogue.sha256);
  return { full, stream };
}

describe('match over a streamed catalogue', () => {
  const recalls = generatedRecalls(150);
  const csv = generatedCatalogue(recalls, 4000);

  it('CSV: the same rows as the catalogue in memory, of every tier and level', async () => {
    const file = path.join(dir, 'generated.csv');
    writeFileSync(file, csv);
    const { full, stream } = await expectSame(file, recalls);
    const reasons = new Set(full.rows.map((r) => r.reason));
    for (const reason of Object.keys(RANK)) expect(reasons, reason).toContain(reason);
    expect(new Set(full.rows.map((r) => r.level))).toEqual(new Set(['match', 'possible', 'excluded']));
    expect(full.counts.rejected).toBeGreaterThan(20);
    expect(full.counts.unchecked).toBeGreaterThan(0);
    expect(full.catalogue.repeated).toHaveLength(1);
    // Words first needed late were counted over the whole file: each one's document frequency, counted here.
    const census = stream.read.census;
    expect(census.late.size).toBeGreaterThan(0);
    const df = new Map<string, number>();
    for (const row of full.catalogue.rows) {
      const parts = brandParts(row.values.brand ?? '');
      const brands = [...parts.strong, ...parts.weak];
      if (brands.length === 0) continue;
      for (const t of nameTokens(row.values.name ?? '', brands.join(' '))) df.set(t, (df.get(t) ?? 0) + 1);
    }
    for (const t of census.late.keys()) expect(census.df.get(t), t).toBe(df.get(t));
    expect([...census.late.values()].some((line) => line > 1)).toBe(true);
    // The match pass read every row before the last word first needed late, and after it only rows a recall may touch.
    const runs = [...census.spans.spans()].slice(1);
    expect(census.spans.usable).toBe(true);
    expect(runs[0]?.[2]).toBe(1);
    expect(runs[0]?.[3]).toBeGreaterThanOrEqual(census.lastLate - 1);
    const reread = runs.reduce((n, run) => n + run[3], 0);
    expect(reread).toBeLessThan(census.rows);
    expect(reread).toBeGreaterThan(census.lastLate);
  });

  it('JSON lines whose later rows add keys, and a file that is not UTF-8 (read again as Windows-1252)', async () => {
    const [header, ...lines] = csv.trim().split('\n');
    const keys = (header as string).split(',').slice(0, 7);
    const jsonl = lines
      .slice(0, 1500)
      .map((line, i) => {
        const cells = line.match(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)?.map((c) => c.replace(/,$/, '').replace(/^"|"$/g, ''));
        const row: Rec = {};
        keys.forEach((k, j) => {
          // The first rows have no model, lot or date key at all.
          if (i < 40 && ['model', 'lot', 'best_before'].includes(k)) return;
          row[k] = cells?.[j] ?? '';
        });
        return JSON.stringify(row);
      })
      .join('\n');
    const file = path.join(dir, 'generated.jsonl');
    writeFileSync(file, `${jsonl}\n\n`);
    await expectSame(file, recalls);
    const latin = path.join(dir, 'latin1.csv');
    const text = csv
      .split('\n')
      .slice(0, 1200)
      .join('\n')
      .replace(/Bon Marché/g, 'Bon Marché Café');
    writeFileSync(latin, Buffer.from(`${text}\nZ1,,Atelier Lumière,,galettes riz ${'x'.repeat(10)},,\n`, 'latin1'));
    const { stream } = await expectSame(latin, recalls);
    expect(stream.read.readAs).toBe('windows-1252');
    // The same behind a UTF-8 byte-order mark: its first column keeps its name (\u00ef\u00bb\u00bf before it, once).
    const marked = path.join(dir, 'bom-latin1.csv');
    writeFileSync(marked, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(latin)]));
    const again = await expectSame(marked, recalls);
    expect(again.stream.read.headers[0]).toBe((header as string).split(',')[0]);
  });

  it('the real-notice corpora: the same rows as the catalogue in memory', async () => {
    for (const corpus of ['real-notices', 'real-notices-2', 'real-notices-3']) {
      const base = path.join('test/fixtures', corpus);
      const notices = readFileSync(path.join(base, 'recalls.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Rec);
      const { full } = await expectSame(path.join(base, 'catalogue.csv'), notices);
      expect(full.rows.length, corpus).toBeGreaterThan(50);
    }
  });

  it("a brand's plural, in one word or several: found and weighed alike by both", async () => {
    const file = path.join(dir, 'plurals.csv');
    writeFileSync(
      file,
      'sku,brand,name\nK1,Kellogg,Frosted Flakes Cereal\nM1,Miski Organics,Organic Dried Banana Slices\nS1,Sainsbury,Taste the Difference Mince Pies\n',
    );
    const notices: Rec[] = [
      { product_brand: "Kellogg's", product_name: 'Frosted Flakes Cereal' },
      {
        product_brand: 'Miski Organic Superfoods Inc.',
        product_name: 'Miski Organic brand Organic Dried Banana Slices',
      },
      { product_brand: "Sainsbury's", product_name: 'Taste the Difference Mince Pies' },
    ];
    const { full } = await expectSame(file, notices);
    expect(full.rows.map((r) => [r.line, r.level, r.reason])).toEqual([
      [1, 'match', 'brand+full-name'],
      [2, 'match', 'brand+full-name'],
      [3, 'match', 'brand+full-name'],
    ]);
  });

  it('a brand the catalogue writes as one word and the label as two (QDelicia, Q’Delicia): found alike by both', async () => {
    const file = path.join(dir, 'joined.csv');
    writeFileSync(file, 'sku,brand,name\nQ1,QDelicia,Empanada Chicken 1.25 lb\nQ2,QDelicia,Empanada Pork 1.25 lb\n');
    const notices: Rec[] = [
      {
        // The brand only on the label: the firm is another.
        product_brand: 'Acme Foods Inc.',
        alert_title: 'Acme Foods Recalls Ready-To-Eat Empanada Products Produced Without Benefit of Inspection',
        product_name: '1.25-lb. plastic bags containing “Q’Delicia DE EMPANADA CHICKEN”',
      },
    ];
    const { full } = await expectSame(file, notices);
    expect(full.rows.map((r) => [r.line, r.level, r.reason])).toEqual([[1, 'match', 'brand+full-name']]);
  });

  it('a catalogue rewritten between the two passes is refused, never matched half old, half new', async () => {
    const file = path.join(dir, 'rewritten.csv');
    writeFileSync(file, csv);
    const index = new RecallIndex();
    for (const r of recalls) index.add(r);
    const read = await readCensus(file, {}, index);
    writeFileSync(file, csv.replace('S1,', 'S1b,'));
    const drain = async () => {
      for await (const _ of streamMatches(read, index)) {
        // Rows of the new file may be found before its end shows it changed.
      }
    };
    await expect(drain()).rejects.toThrow('changed while it was read');
  });
});
