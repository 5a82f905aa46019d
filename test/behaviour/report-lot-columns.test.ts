// `report` shows every lot and date column the matcher read: a row excluded on its second lot column (`batch`) shows
// that column's lot, not an empty cell; a row with both filled shows both, named by their headers.
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const LINE = '3564709006031 V028 Date de durabilité minimale 04/04/2021';
const LATER = FIXED_START + 3_600_000;
const dir = tempDir('rf-report-lots-');
const catalog = path.join(dir, 'products.csv');
let sandbox: Sandbox;
let db: string;
let recallId: number;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 4, clock: () => FIXED_START });
  const [added] = sandbox.addRecords([
    {
      data_source: 'rappel_conso',
      alert_title: 'Yaourt nature',
      product_brand: 'Laiterie',
      product_name: 'Yaourt nature',
      product_model_numbers: [],
      standard_identifiers_and_barcodes: [LINE],
    },
  ]);
  recallId = (added as { id: number }).id;
  ({ db } = await testArchive('sqlite'));
  expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
  // B's lot is only in `batch`; C has a lot in each column, neither the notice's; D's dates are in `ddm` and `dlc`.
  writeFileSync(
    catalog,
    [
      'sku,ean,name,lot,batch,ddm,dlc',
      'B,3564709006031,Yaourt B,,V031,,',
      'C,3564709006031,Yaourt C,V030,V032,,',
      'D,3564709006031,Yaourt D,,,05/04/2021,06/04/2021',
      '',
    ].join('\n'),
  );
});

it('-f json shows the lot of every lot column and the date of every date column, each with its header when several', async () => {
  const r = await runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '--key', 'sku', '-f', 'json'], {
    clock: fakeClock(LATER),
  });
  expect(r.code, r.stderr).toBe(0);
  const excluded = (JSON.parse(r.stdout) as { coverage: { catalogue: { excluded: Record<string, unknown>[] } } })
    .coverage.catalogue.excluded;
  expect(excluded.map((x) => [x.catalog_key, x.recall_id, x.row_lot, x.row_date, x.excluded_on])).toEqual([
    ['sku:B', recallId, 'V031', null, 'lot'],
    ['sku:C', recallId, 'lot: V030; batch: V032', null, 'lot'],
    ['sku:D', recallId, null, 'ddm: 05/04/2021; dlc: 06/04/2021', 'date'],
  ]);
});
