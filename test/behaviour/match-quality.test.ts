// `match --quality` in process on both archive engines: tier precision from cases closed with `cases resolve`, coverage per source.
import { withCheck } from '../helpers/barcodes.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst, runMain } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-quality-');

const NONE = { product_model_numbers: [], product_description: 'x', packaging_description: null, alert_summary: 'x' };

describe.each(ENGINES)('match --quality on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  it('precision per tier once 10 cases are judged, "too few to judge" below; coverage per source', async () => {
    const sandbox = await sandboxFor({ recordCount: 0, seed: 3, clock: () => FIXED_START });
    const codes = Array.from({ length: 12 }, (_, i) => withCheck(`3560000000${String(i).padStart(2, '0')}`));
    sandbox.addRecords([
      ...codes.map((code, i) => ({
        ...NONE,
        data_source: 'rappel_conso',
        product_brand: 'Laiterie',
        product_name: 'Yaourt',
        standard_identifiers_and_barcodes: [`${code} L${i} Date limite de consommation 12/11/2020`],
        production_dates: 'Du 01/11/2020 au 10/11/2020',
      })),
      ...['XK-100', 'XK-200'].map((model) => ({
        ...NONE,
        data_source: 'us_cpsc',
        product_brand: 'Voltra',
        product_name: 'Power bank',
        product_model_numbers: [model],
        standard_identifiers_and_barcodes: [],
        production_dates: 'Sold from January 2024 through March 2024',
      })),
    ]);
    const { db } = await testArchive(engine);
    const clock = fakeClock(FIXED_START);
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock })).code).toBe(0);
    const catalog = path.join(dir, `catalogue-${engine}.csv`);
    const rows = [...codes.map((c, i) => `B${i},${c},,`), 'M1,,Voltra,XK-100', 'M2,,Nordvik,XK-200'];
    writeFileSync(catalog, `sku,ean,brand,model\n${rows.join('\n')}\n`);
    const opened = await runMain(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases'], { clock });
    expect(opened.code, opened.stderr).toBe(0);
    const listed = await runMain(['cases', '--status', 'all', '--db', db, '-f', 'jsonl'], { clock });
    const cases = jsonLines(listed.stdout) as Rec[];
    expect(cases).toHaveLength(14);
    const barcode = cases.filter((c) => c.reason === 'barcode');
    // 9 confirmed, 2 wrong, 1 left open: 11 judged, precision 9/11.
    const outcomes = [...Array(7).fill('removed-from-sale'), 'action-taken', 'action-taken', 'false-positive'];
    outcomes.push('not-our-product');
    for (const [i, outcome] of outcomes.entries()) {
      const r = await runMain(['cases', 'resolve', String(barcode[i]?.id), '--as', outcome, '--db', db], { clock });
      expect(r.code, r.stderr).toBe(0);
    }
    const model = cases.find((c) => c.reason === 'model') as Rec;
    await runMain(['cases', 'resolve', String(model.id), '--as', 'false-positive', '--db', db], { clock });

    const q = await runMain(['match', '--quality', '--db', db, '-f', 'jsonl'], { clock });
    expect(q.code, q.stderr).toBe(0);
    const got = (jsonLines(q.stdout) as Rec[]).map((r) => [r.section, r.subject, r.sample, r.precision, r.note]);
    expect(got).toEqual([
      ['tier', 'match/barcode', 11, Math.round((9 / 11) * 1000) / 1000, ''],
      ['tier', 'match/model+brand', 0, null, 'too few to judge (0 closed as confirmed or wrong; 10 needed)'],
      ['tier', 'possible/model', 1, null, 'too few to judge (1 closed as confirmed or wrong; 10 needed)'],
      ['coverage', 'rappel_conso', 12, null, ''],
      ['coverage', 'us_cpsc', 2, null, ''],
    ]);
    const coverage = (jsonLines(q.stdout) as Rec[]).filter((r) => r.section === 'coverage');
    expect(coverage.map((r) => [r.barcode, r.model, r.lot, r.date])).toEqual([
      [1, 0, 1, 1],
      [0, 1, 0, 0],
    ]);
    const table = await runMain(['match', '--quality', '--db', db, '-f', 'table'], { clock, columns: 400 });
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]?.split(/\s+/).slice(0, 7)).toEqual([
      'section',
      'subject',
      'sample',
      'confirmed',
      'wrong',
      'unjudged',
      'precision',
    ]);
    expect(lines.find((l) => l.includes('possible/model'))).toContain('too few to judge');
    expect(lines.find((l) => l.includes('match/barcode'))).toContain(String(Math.round((9 / 11) * 1000) / 1000));
    const refused = await runMain(['match', '--quality', '--catalog', catalog, '--db', db], { clock });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--quality reads the archive's cases and recalls: --catalog does not apply");
  });
});
