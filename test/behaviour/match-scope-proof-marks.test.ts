// `match` in process against the sandbox: rows a notice covers in words the reader once misread (a range after a
// RappelConso barcode, a minus sign for a dash, "≤", a labelled lot cell, a German date on a US notice) stay matches;
// rows outside a scope read whole are still excluded.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-scope-marks-');
let sandbox: Sandbox;
let ids: number[] = [];

const notice = (ean: string, title: string, fields: Rec) => ({
  data_source: 'rappel_conso',
  alert_title: title,
  product_brand: title,
  product_name: title,
  product_model_numbers: [],
  standard_identifiers_and_barcodes: [{ type: 'EAN', value: ean }],
  geo_jurisdictions: ['FR'],
  ...fields,
});

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
  const added = sandbox.addRecords([
    notice('3564709006031', 'Terrine de campagne', {
      standard_identifiers_and_barcodes: ['3564709006031$L555-L560$Date limite de consommation$16/06/2025'],
    }),
    notice('4006381333931', 'Biscuits', { production_dates: 'Lots 1234 − 1240' }),
    notice('4006381333948', 'Yaourt', { production_dates: 'Best before: ≤ 30.06.2025' }),
    notice('4006381333955', 'Chocolat', { production_dates: 'Lot 1234' }),
    notice('4006381333962', 'Lebkuchen', {
      data_source: 'us_cpsc',
      geo_jurisdictions: ['US'],
      production_dates: 'MHD 05.06.2025',
    }),
  ]);
  ids = added.map((r) => (r as { id: number }).id);
});

describe('match: scope the reader once misread', () => {
  it('keeps every covered row a match (exit 8) and still excludes the rows outside a scope read whole', async () => {
    const file = path.join(dir, 'products.csv');
    writeFileSync(
      file,
      [
        'sku,ean,name,lot,best_before',
        'T1,3564709006031,Terrine,L557,',
        'T2,3564709006031,Terrine,L561,',
        'B1,4006381333931,Biscuits,1238,',
        'B2,4006381333931,Biscuits,1250,',
        'Y1,4006381333948,Yaourt,,2025-06-01',
        'C1,4006381333955,Chocolat,LOT:1234,',
        'C2,4006381333955,Chocolat,Batch:1234,',
        'C3,4006381333955,Chocolat,Lot n°1234,',
        'C4,4006381333955,Chocolat,LOT:1299,',
        'L1,4006381333962,Lebkuchen,,2025-06-05',
        '',
      ].join('\n'),
    );
    // On a terminal, where the last line (the counts) is said.
    const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl', '--explain', '--exit-code'], {
      clock: fakeClock(FIXED_START),
      stderrIsTTY: true,
    });
    expect(r.code, r.stderr).toBe(8);
    const rows = (jsonLines(r.stdout) as Rec[]).filter((x) => ids.includes(x.recall_id));
    const bySku = Object.fromEntries(rows.map((x) => [x.sku, [x.level, x.scope]]));
    expect(bySku).toEqual({
      T1: ['match', 'in-scope'],
      T2: ['excluded', 'out-of-scope'],
      B1: ['match', 'in-scope'],
      B2: ['excluded', 'out-of-scope'],
      Y1: ['match', 'unknown'],
      C1: ['match', 'in-scope'],
      C2: ['match', 'in-scope'],
      C3: ['match', 'in-scope'],
      C4: ['excluded', 'out-of-scope'],
      L1: ['match', 'in-scope'],
    });
    const row = (sku: string) => rows.find((x) => x.sku === sku) as Rec;
    expect(row('T1').scope_evidence).toBe(
      'standard_identifiers_and_barcodes: "3564709006031 L555-L560 Date limite de consommation 16/06/2025"',
    );
    expect(row('T1').explain).toContain('lots l555 to l560');
    expect(row('Y1').scope_evidence).toBe(
      'verify lot/date, the notice\'s scope was not read whole: production_dates: ": ≤ 30.06.2025"',
    );
    expect(row('L1').explain).toContain('best-before 2025-06-05');
    expect(r.stderr).toContain('· 7 matches · 0 possible · 3 excluded (out of scope)');
  });
});
