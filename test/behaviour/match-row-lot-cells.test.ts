// `match` in process against the sandbox: a JSON-lines catalogue's lot written as a list, as a number JSON cannot hold,
// with a suffix, or in a GS1 code, is excluded only when it is plainly none of the notice's lots.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-row-lots-');
const EAN = '3760000000017';
let sandbox: Sandbox;
let recallId: number;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 0, seed: 5, clock: () => FIXED_START });
  const [added] = sandbox.addRecords([
    {
      data_source: 'rappel_conso_food',
      alert_title: 'Rappel Widget',
      product_brand: 'Zorblax',
      product_name: 'Zorblax Widget',
      product_model_numbers: [],
      production_dates: 'Lot 1235',
      geo_jurisdictions: ['FR'],
      standard_identifiers_and_barcodes: [{ type: 'EAN', value: EAN }],
    },
  ]);
  recallId = (added as { id: number }).id;
});

describe('match: a JSON-lines catalogue lot against a notice naming lot 1235', () => {
  it('a list holding it is in scope, a rounded number is to verify, a suffixed code is its head', async () => {
    const file = path.join(dir, 'lots.jsonl');
    const row = (sku: string, cells: string) => `{"sku":"${sku}","brand":"Zorblax","name":"Widget",${cells}}`;
    const lines = [
      row('R1', `"ean":"${EAN}","lot":["1234","1235"]`),
      // JSON.parse reads 123456789012345678 as 123456789012345680: no digits to prove with.
      row('R2', `"ean":"${EAN}","lot":123456789012345678`),
      row('R3', `"ean":"${EAN}","lot":["1234","1236"]`),
      row('R4', `"ean":"${EAN}","lot":"1235-A"`),
      row('R5', `"ean":"(01)0${EAN}(10)1235-A"`),
      row('R6', `"ean":"${EAN}","lot":"1100+"`),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl'], {
      clock: fakeClock(FIXED_START),
    });
    expect(r.code).toBe(0);
    const out = (jsonLines(r.stdout) as Rec[]).filter((x) => x.recall_id === recallId);
    const bySku = Object.fromEntries(out.map((x) => [x.sku, [x.level, x.scope]]));
    expect(bySku).toEqual({
      R1: ['match', 'in-scope'],
      R2: ['match', 'unknown'],
      R3: ['excluded', 'out-of-scope'],
      R4: ['match', 'in-scope'],
      R5: ['match', 'in-scope'],
      R6: ['match', 'unknown'],
    });
    expect(out.find((x) => x.sku === 'R1')?.lot).toBe('1234, 1235');
    expect(out.find((x) => x.sku === 'R2')?.lot).toBe('≈123456789012345680');
  });
});
