// `match` on a catalogue with two date columns (`ddm` and `dlc`) or two lot columns (`lot` and `batch`): each is read,
// so a row is excluded only when all of them are out of the notice's scope, held in memory or streamed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;
const dir = tempDir('rf-match-second-columns-');
/** The notice of a use-by date and the notice of a lot, each on its own barcode. */
const DATED = '3760000000017';
const LOTTED = '3564709006031';
/** The notice of a use-by date whose day and month could be either way round (5 April, or 4 May read month first). */
const ORDERED = '3760000000024';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
  const notice = (ean: string, scope: string) => ({
    data_source: 'rappel_conso',
    alert_title: `Rappel ${ean}`,
    product_name: 'Widget',
    product_brand: 'Zorblax',
    product_model_numbers: [],
    production_dates: scope,
    geo_jurisdictions: ['FR'],
    standard_identifiers_and_barcodes: [{ type: 'EAN', value: ean }],
  });
  sandbox.addRecords([notice(DATED, 'DLC 15/06/2025'), notice(LOTTED, 'Lot 5678'), notice(ORDERED, 'DLC 05/04/2025')]);
});

function catalogue(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function levels(file: string, more: string[] = []) {
  const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl', ...more], {
    clock: fakeClock(FIXED_START),
  });
  expect(r.code, r.stderr).toBe(0);
  const rows = (jsonLines(r.stdout) as Rec[]).map((x) => [x.sku, x.level, x.scope]);
  return { rows, stderr: r.stderr };
}

const DATES = [
  'sku,ean,name,ddm,dlc',
  // The notice's DLC is in the second column.
  `A,${DATED},Widget,01/12/2025,15/06/2025`,
  // Neither column holds it: out.
  `B,${DATED},Widget,01/12/2025,20/06/2025`,
  // The second column is a bound: which day the stock is, nothing proves.
  `C,${DATED},Widget,01/12/2025,15/06/2025 or later`,
].join('\n');

describe('match: a second date column', () => {
  it('ddm and dlc are both read: the row is in scope on dlc, excluded only when neither holds the date', async () => {
    const { rows, stderr } = await levels(catalogue('dates.csv', `${DATES}\n`));
    expect(rows).toEqual([
      ['A', 'match', 'in-scope'],
      ['C', 'match', 'unknown'],
      ['B', 'excluded', 'out-of-scope'],
    ]);
    expect(stderr).not.toContain('is not read');
  });

  it('streamed (a catalogue past the streaming size), the same rows', async () => {
    const padded = paddedToStream(DATES, (i) => `F${i},,Qwzt vrk ${i},,`);
    const { rows } = await levels(catalogue('dates-big.csv', padded.text));
    expect(rows).toEqual([
      ['A', 'match', 'in-scope'],
      ['C', 'match', 'unknown'],
      ['B', 'excluded', 'out-of-scope'],
    ]);
  });

  it('with --map best_before=ddm, only ddm is read and stderr names dlc as not read', async () => {
    const { rows, stderr } = await levels(catalogue('dates-mapped.csv', `${DATES}\n`), ['--map', 'best_before=ddm']);
    expect(rows).toEqual([
      ['A', 'excluded', 'out-of-scope'],
      ['B', 'excluded', 'out-of-scope'],
      ['C', 'excluded', 'out-of-scope'],
    ]);
    expect(stderr).toContain(
      "warning: catalogue column 'dlc' is not read: the best-before dates come from 'ddm' (--map best_before=dlc reads it instead)\n",
    );
  });
});

describe('match: a second lot column', () => {
  it('lot and batch are both read: the row is in scope on batch, excluded only when neither names the lot', async () => {
    const file = catalogue(
      'lots.csv',
      ['sku,ean,name,lot,batch', `A,${LOTTED},Widget,1234,5678`, `B,${LOTTED},Widget,1234,4321`, ''].join('\n'),
    );
    const { rows, stderr } = await levels(file);
    expect(rows).toEqual([
      ['A', 'match', 'in-scope'],
      ['B', 'excluded', 'out-of-scope'],
    ]);
    expect(stderr).not.toContain('is not read');
  });
});

describe("match: each date column's day/month order is its own", () => {
  // ddm's 13/04/2025 shows day first; expiry's 04/05/2025 shows nothing, so it is 4 May or 5 April (the notice's).
  const ORDERS = ['sku,ean,name,ddm,expiry', `A,${ORDERED},Widget,13/04/2025,`, `B,${ORDERED},Widget,,04/05/2025`].join(
    '\n',
  );
  const expected = [
    ['B', 'match', 'in-scope'],
    ['A', 'excluded', 'out-of-scope'],
  ];

  it('a column whose own cells do not show the order keeps both readings', async () => {
    const { rows } = await levels(catalogue('orders.csv', `${ORDERS}\n`));
    expect(rows).toEqual(expected);
  });

  it('streamed, the same rows', async () => {
    const padded = paddedToStream(ORDERS, (i) => `F${i},,Qwzt vrk ${i},,`);
    const { rows } = await levels(catalogue('orders-big.csv', padded.text));
    expect(rows).toEqual(expected);
  });
});

describe("match: a lot in Excel's number form beside a second lot column", () => {
  it('"5,678" beside X1 is lot 5678, held in memory or streamed', async () => {
    const lots = ['sku,ean,name,lot,batch', `A,${LOTTED},Widget,"5,678",X1`, `B,${LOTTED},Widget,"5,679",X1`].join(
      '\n',
    );
    const expected = [
      ['A', 'match', 'in-scope'],
      ['B', 'excluded', 'out-of-scope'],
    ];
    expect((await levels(catalogue('excel-lots.csv', `${lots}\n`))).rows).toEqual(expected);
    const padded = paddedToStream(lots, (i) => `F${i},,Qwzt vrk ${i},,`);
    expect((await levels(catalogue('excel-lots-big.csv', padded.text))).rows).toEqual(expected);
  });
});
