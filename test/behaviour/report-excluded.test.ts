// `report` on both engines: a catalogue row out of a notice's lots and dates is listed under "Excluded by lot or date"
// with the notice's words, in every format and the JSON (valid against schemas/), and never makes the statement incomplete.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
/** RappelConso's line for a yoghurt: GTIN, lot, best-before date. */
const LINE = '3564709006031 V028 Date de durabilité minimale 04/04/2021';
const EVIDENCE = `standard_identifiers_and_barcodes: "${LINE}"`;
const SCHEMA = path.resolve(import.meta.dirname, '..', '..', 'schemas', 'report.schema.json');
const LATER = FIXED_START + 3_600_000;

describe.each(ENGINES)('report on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const dir = tempDir('rf-report-excluded-');
  const catalog = path.join(dir, 'products.csv');
  let sandbox: Sandbox;
  let db: string;
  let recallId: number;
  const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(LATER) });
  // An hour after the cases were opened: they are part of the report's period.
  const report = (format: string) =>
    runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '--key', 'sku', '-f', format], {
      clock: fakeClock(LATER + 3_600_000),
    });

  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 20, seed: 9, clock: () => FIXED_START });
    const [added] = sandbox.addRecords([
      {
        data_source: 'rappel_conso',
        alert_title: 'Yaourt nature <b>',
        product_brand: 'Laiterie',
        product_name: 'Yaourt nature',
        product_model_numbers: [],
        standard_identifiers_and_barcodes: [LINE],
      },
    ]);
    recallId = (added as { id: number }).id;
    ({ db } = await testArchive(engine));
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
    // A holds the recalled lot (a match, its case opened); B holds another lot (excluded).
    writeFileSync(catalog, 'sku,ean,name,lot\nA,3564709006031,Yaourt A,V028\nB,3564709006031,Yaourt B,V031\n');
    const opened = await run(['match', '--catalog', catalog, '--key', 'sku', '--archive', '--db', db, '--open-cases']);
    expect(opened.code, opened.stderr).toBe(0);
  });

  it('-f json lists B under excluded with its evidence, not as a match without a case; valid against the schema', async () => {
    const r = await report('json');
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Rec;
    const cat = d.coverage.catalogue as Rec;
    expect(d.cases.map((c: Rec) => [c.catalog_key, c.recall_id])).toEqual([['sku:A', recallId]]);
    expect(cat.matches_without_case).toEqual([]);
    expect(cat.excluded).toEqual([
      {
        catalog_key: 'sku:B',
        line: 2,
        product_name: 'Yaourt B',
        reason: 'barcode',
        recall_id: recallId,
        alert_title: 'Yaourt nature <b>',
        risk_severity: sandbox.records().find((x) => x.id === recallId)?.risk_severity ?? null,
        scope_evidence: EVIDENCE,
        // The row's own values beside the notice's words: lot V031 against the notice's V028.
        row_lot: 'V031',
        row_date: null,
        excluded_on: 'lot',
      },
    ]);
    // A matches; B only excluded: one row matching, one without a match.
    expect(cat.rows_matching).toBe(1);
    expect(d.statement.rows_without_match).toBe(1);
    // Incomplete only if monitoring was: an excluded pair never makes it so.
    expect(d.statement.incomplete).toBe(!d.coverage.monitoring.complete);
    expect(d.statement.text).not.toMatch(/no case/);
    expect(d.statement.text).toContain(
      "1 pair of a catalogue row and a recall was excluded by lot or date (1 on the lot), each only on proof: the notice's lots or dates read whole and the row's outside them under every reading",
    );
    const ajv = new Ajv2020({ allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as Rec);
    expect(validate(d) ? 'valid' : ajv.errorsText(validate.errors)).toBe('valid');
    const wrong = structuredClone(d);
    wrong.coverage.catalogue.excluded[0].scope_evidence = null;
    expect(validate(wrong)).toBe(false);
  });

  it('html, markdown and csv list the excluded pair with the notice words', async () => {
    const html = await report('html');
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toContain('<h3>Excluded by lot or date</h3>');
    // Written out by hand, not through the code's own escaper: the quotes must reach the page as entities.
    expect(html.stdout).toContain(`<td>standard_identifiers_and_barcodes: &quot;${LINE}&quot;</td>`);
    expect(html.stdout).toContain('<td>sku:B · Yaourt B</td>');
    // The row's lot, and what the notice proved outside, stand beside the notice's words.
    expect(html.stdout).toContain('<th>Row lot</th><th>Row date</th><th>Excluded on</th><th>Notice says</th>');
    expect(html.stdout).toContain('<td>V031</td><td></td><td>lot</td>');
    expect(html.stdout).not.toContain('Matches without a case</h3>');
    expect(html.stdout).not.toContain('Yaourt nature <b>');

    const md = await report('markdown');
    expect(md.stdout).toContain('### Excluded by lot or date');
    expect(md.stdout).toContain('sku:B · Yaourt B');
    expect(md.stdout).toContain('Date de durabilité minimale 04/04/2021');
    expect(md.stdout).not.toContain('### Matches without a case');

    const csv = await report('csv');
    const rows = parse(csv.stdout, { columns: true }) as Rec[];
    expect(csv.stdout.split('\n')[0]).toMatch(
      /,time_to_action_hours,entry,scope_evidence,row_lot,row_date,excluded_on$/,
    );
    expect(
      rows.map((x) => [x.entry, x.catalog_key, x.level, x.case_id, x.scope_evidence, x.row_lot, x.excluded_on]),
    ).toEqual([
      ['case', 'sku:A', 'match', expect.stringMatching(/^\d+$/), '', '', ''],
      ['excluded', 'sku:B', 'excluded', '', EVIDENCE, 'V031', 'lot'],
    ]);
  });

  it('match lists the same pair as excluded (the report and match agree)', async () => {
    const m = await run(['match', '--catalog', catalog, '--archive', '--db', db, '-f', 'jsonl']);
    const rows = (jsonLines(m.stdout) as Rec[]).filter((x) => x.recall_id === recallId);
    expect(rows.map((x) => [x.sku, x.level, x.scope_evidence])).toEqual([
      ['A', 'match', EVIDENCE],
      ['B', 'excluded', EVIDENCE],
    ]);
  });
});
