// The report lists, under "To verify: lot or date", each pair whose lot or date the notice's scope could not settle.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const LINE = '3564709006031 V028 Date de durabilité minimale 04/04/2021';

describe.each(ENGINES)('report on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const dir = tempDir('rf-report-verify-');
  const catalog = path.join(dir, 'products.csv');
  let sandbox: Sandbox;
  let db: string;
  let recallId: number;
  const report = (format: string) =>
    runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '--key', 'sku', '-f', format], {
      clock: fakeClock(FIXED_START + 3_600_000),
    });

  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    const [added] = sandbox.addRecords([
      {
        data_source: 'rappel_conso',
        alert_title: 'Yaourt nature',
        product_brand: 'Laiterie',
        standard_identifiers_and_barcodes: [LINE],
      },
    ]);
    recallId = (added as { id: number }).id;
    ({ db } = await testArchive(engine));
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
    // A names the recalled lot; C gives no lot or date: the notice names one, so C is to verify.
    writeFileSync(catalog, 'sku,ean,name,lot\nA,3564709006031,Yaourt A,V028\nC,3564709006031,Yaourt C,\n');
  });

  it('-f json and html list C with what to check, and never A', async () => {
    const json = await report('json');
    expect(json.code, json.stderr).toBe(0);
    const verify = (JSON.parse(json.stdout) as Rec).coverage.catalogue.to_verify as Rec[];
    expect(verify.map((v) => [v.catalog_key, v.level, v.recall_id, v.row_lot])).toEqual([
      ['sku:C', 'match', recallId, null],
    ]);
    expect(verify[0]?.verify).toMatch(
      /^verify lot\/date, the catalogue row has no lot or date: standard_identifiers_and_barcodes: /,
    );
    const html = await report('html');
    expect(html.stdout).toContain('<h3>To verify: lot or date</h3>');
    expect(html.stdout).toContain('<td>sku:C · Yaourt C</td>');
    expect(html.stdout).not.toContain('<td>sku:A · Yaourt A</td><td>1</td><td>match</td>');
  });
});
