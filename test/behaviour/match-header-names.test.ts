// `match` with catalogue columns named like Object's own properties (`constructor`, `toString`, `__proto__`): header names are data.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parquetMetadata, parquetRead, parquetSchema } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;
const dir = tempDir('rf-match-headers-');
const NAMES = ['constructor', 'toString', '__proto__'] as const;
const CODE = '3564709006031';
let sandbox: Sandbox;
let recallId: unknown;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 10, seed: 4, clock: () => FIXED_START });
  sandbox.addRecords([{ alert_title: 'Yaourt nature', standard_identifiers_and_barcodes: [CODE] }]);
  const feed = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl'], { clock: fakeClock(FIXED_START) });
  recallId = jsonLines(feed.stdout).find((r) => r.alert_title === 'Yaourt nature')?.id;
  expect(recallId).toBeTypeOf('number');
});

const run = (args: string[]) =>
  runMainAgainst(sandbox, ['match', ...args], { clock: fakeClock(FIXED_START), columns: 400 });

/** The one match row of `-f jsonl`, as JSON.parse reads it (`__proto__` an own key). */
async function matchRow(args: string[]): Promise<Rec> {
  const r = await run([...args, '-f', 'jsonl']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain('unexpected');
  const rows = jsonLines(r.stdout);
  expect(rows.map((x) => [x.recall_id, x.reason])).toEqual([[recallId, 'barcode']]);
  return rows[0] as Rec;
}

const own = (row: Rec, key: string) => (Object.hasOwn(row, key) ? row[key] : 'missing');

describe('match: catalogue columns named constructor, toString, __proto__', () => {
  it('as extra columns: exit 0, each column and its value in jsonl, csv and Parquet', async () => {
    const catalog = path.join(dir, 'extra.csv');
    writeFileSync(catalog, `ean,name,${NAMES.join(',')}\n${CODE},Yaourt,c-value,t-value,p-value\n`);
    const row = await matchRow(['--catalog', catalog]);
    expect(NAMES.map((n) => own(row, n))).toEqual(['c-value', 't-value', 'p-value']);

    const out = path.join(dir, 'extra-out.csv');
    const csv = await run(['--catalog', catalog, '-o', out]);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, first] = await parseCsvWithPython(out);
    expect(NAMES.map((n) => first?.[header?.indexOf(n) ?? -1])).toEqual(['c-value', 't-value', 'p-value']);

    const parquet = path.join(dir, 'extra-out.parquet');
    const written = await run(['--catalog', catalog, '-o', parquet]);
    expect(written.code, written.stderr).toBe(0);
    const bytes = readFileSync(parquet);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    // Rows as arrays, read by the schema's names: hyparquet's row objects would drop a `__proto__` key themselves.
    const names = parquetSchema(parquetMetadata(file)).children.map((c) => c.element.name);
    let read: unknown[][] = [];
    await parquetRead({ file, rowFormat: 'array', onComplete: (rows) => (read = rows as unknown[][]) });
    expect(NAMES.map((n) => read[0]?.[names.indexOf(n)])).toEqual(['c-value', 't-value', 'p-value']);
  });

  it('a JSON lines row without them reads them as absent (even as the mapped name and brand), never as what Object inherits', async () => {
    const catalog = path.join(dir, 'partial.jsonl');
    // The first row has the three columns (so the output has them too), the row that matches has none.
    const other = { ean: '', name: 'Autre', constructor: 'c', toString: 't', ['__proto__']: 'p' };
    writeFileSync(catalog, `${JSON.stringify(other)}\n${JSON.stringify({ ean: CODE, name: 'Yaourt' })}\n`);
    const map = ['--map', 'name=constructor,brand=toString'];
    const row = await matchRow(['--catalog', catalog, ...map]);
    expect(NAMES.map((n) => own(row, n))).toEqual(['missing', 'missing', 'missing']);
    const out = path.join(dir, 'partial-out.csv');
    const csv = await run(['--catalog', catalog, ...map, '-o', out]);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, first] = await parseCsvWithPython(out);
    expect(NAMES.map((n) => first?.[header?.indexOf(n) ?? -1])).toEqual(['', '', '']);
  });

  it('as the barcode, name and brand columns (--map), from CSV and from JSON lines', async () => {
    const map = ['--map', 'gtin=__proto__,name=constructor,brand=toString'];
    const csvCatalog = path.join(dir, 'mapped.csv');
    writeFileSync(csvCatalog, `${NAMES.join(',')}\nYaourt,Danone,${CODE}\n`);
    const jsonCatalog = path.join(dir, 'mapped.jsonl');
    writeFileSync(jsonCatalog, `{"constructor":"Yaourt","toString":"Danone","__proto__":"${CODE}"}\n`);
    for (const catalog of [csvCatalog, jsonCatalog]) {
      const row = await matchRow(['--catalog', catalog, ...map]);
      expect(NAMES.map((n) => own(row, n))).toEqual(['Yaourt', 'Danone', CODE]);
    }
    // The table shows the name and brand columns under their own headers.
    const table = await run(['--catalog', csvCatalog, ...map, '-f', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const [head, , line] = table.stdout.split('\n');
    const headers = head?.trim().split(/\s{2,}/) ?? [];
    const cells = line?.trim().split(/\s{2,}/) ?? [];
    expect(['constructor', 'toString'].map((h) => cells[headers.indexOf(h)])).toEqual(['Yaourt', 'Danone']);
  });
});

describe('match: catalogue columns named like its own', () => {
  it('`level` and `catalog.level` both keep their values, under keys of their own, in jsonl and csv', async () => {
    const catalog = path.join(dir, 'ours.csv');
    writeFileSync(catalog, `ean,level,catalog.level,recall_id\n${CODE},L-A,L-B,R1\n`);
    const row = await matchRow(['--catalog', catalog]);
    expect(row).toMatchObject({
      level: 'match',
      'catalog.level': 'L-A',
      'catalog.catalog.level': 'L-B',
      'catalog.recall_id': 'R1',
      recall_id: recallId,
    });
    const out = path.join(dir, 'ours-out.csv');
    const csv = await run(['--catalog', catalog, '-o', out]);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, first] = await parseCsvWithPython(out);
    expect(new Set(header).size).toBe(header?.length);
    const at = (name: string) => first?.[header?.indexOf(name) ?? -1];
    expect([at('catalog.level'), at('catalog.catalog.level'), at('catalog.recall_id')]).toEqual(['L-A', 'L-B', 'R1']);
  });
});

describe('match: two barcode columns', () => {
  it.each([
    ['gtin,ean', 'the row fills the second'],
    ['EAN,ean', 'two spellings of one name'],
  ])('%s (%s): each is read, and a row is found by either', async (headers) => {
    const catalog = path.join(dir, `two-${headers.replace(',', '-')}.csv`);
    writeFileSync(catalog, `sku,${headers},name\nS1,,${CODE},Yaourt\nS2,${CODE},,Yaourt\n`);
    const r = await run(['--catalog', catalog, '-f', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout).map((x) => [x.sku, x.reason])).toEqual([
      ['S1', 'barcode'],
      ['S2', 'barcode'],
    ]);
    expect(r.stderr).not.toContain('is not read');
  });

  it('mapped to one, the other is named on stderr as not read', async () => {
    const catalog = path.join(dir, 'two-mapped.csv');
    writeFileSync(catalog, `sku,gtin,ean,name\nS1,,${CODE},Yaourt\n`);
    const r = await run(['--catalog', catalog, '--map', 'gtin=gtin', '-f', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      "warning: catalogue column 'ean' is not read: the barcodes come from 'gtin' (--map gtin=ean reads it instead)\n",
    );
  });
});
