// Catalogue headers are data: a column named "constructor", "toString" or "__proto__" is read and written like any other.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const EAN = '3564709006031';

describe('match with header names that are Object members', () => {
  const dir = tempDir('rf-header-names-');
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 5, seed: 3 });
    sandbox.addRecords([
      {
        data_source: 'rappel_conso',
        alert_title: 'Yaourt nature',
        product_brand: 'Laiterie',
        product_name: 'Yaourt nature',
        product_model_numbers: [],
        standard_identifiers_and_barcodes: [{ type: 'GTIN', value: EAN }],
      },
    ]);
  });

  it.each(['csv', 'jsonl'])(
    'extra columns constructor, toString and __proto__ (%s catalogue): exit 0, values kept',
    async (kind) => {
      const file = path.join(dir, `products.${kind}`);
      writeFileSync(
        file,
        kind === 'csv'
          ? `sku,ean,name,constructor,toString,__proto__\nA,${EAN},Yaourt,c1,t1,p1\n`
          : `${JSON.stringify(JSON.parse(`{"sku":"A","ean":"${EAN}","name":"Yaourt","constructor":"c1","toString":"t1","__proto__":"p1"}`))}\n`,
      );
      const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl']);
      expect(r.code, r.stderr).toBe(0);
      const [row] = jsonLines(r.stdout) as Record<string, unknown>[];
      // Read as own keys of the parsed line: JSON.parse keeps "__proto__" as data.
      expect([
        row?.sku,
        row?.level,
        row?.constructor,
        row?.toString,
        Object.getOwnPropertyDescriptor(row, '__proto__')?.value,
      ]).toEqual(['A', 'match', 'c1', 't1', 'p1']);
      const csv = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'csv']);
      expect(csv.code, csv.stderr).toBe(0);
      const [header, first] = parse(csv.stdout) as string[][];
      // As pairs, not an object literal: in a literal "__proto__" would set the prototype, not a key.
      expect(['constructor', 'toString', '__proto__'].map((h) => [h, first?.[header?.indexOf(h) ?? -1]])).toEqual([
        ['constructor', 'c1'],
        ['toString', 't1'],
        ['__proto__', 'p1'],
      ]);
    },
  );

  it('a recognised role read from a column named constructor (--map name=constructor)', async () => {
    const file = path.join(dir, 'mapped.csv');
    writeFileSync(file, `sku,ean,brand,constructor\nA,${EAN},Laiterie,Yaourt nature\n`);
    const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '--map', 'name=constructor', '-f', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    expect((jsonLines(r.stdout) as Record<string, unknown>[]).map((x) => [x.sku, x.level, x.constructor])).toEqual([
      ['A', 'match', 'Yaourt nature'],
    ]);
  });
});
