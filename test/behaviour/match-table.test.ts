// `match -f table` in process against the sandbox: the recall's severity and the product's name shown, matches before
// possibles before excluded rows (by severity within each), and no header ever cut.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-table-');
const catalog = path.join(dir, 'products.csv');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 10, seed: 4, clock: () => FIXED_START });
  // Two notices, each naming a lot: each has a row in its lot (match) and one out of it (excluded).
  sandbox.addRecords([
    {
      alert_title: 'Yaourt nature',
      risk_severity: 'low',
      standard_identifiers_and_barcodes: ['3564709006031 V028 Date de durabilité minimale 04/04/2021'],
    },
    {
      alert_title: 'Yaourt fraise',
      risk_severity: 'serious',
      standard_identifiers_and_barcodes: ['3564709006048 L77 Date de durabilité minimale 04/04/2021'],
    },
  ]);
  writeFileSync(
    catalog,
    [
      'sku,ean,name,lot',
      'A,3564709006031,Nature-in-lot,V028',
      'B,3564709006031,Nature-other-lot,V031',
      'C,3564709006048,Fraise-in-lot,L77',
      'D,3564709006048,Fraise-other-lot,L78',
    ].join('\n'),
  );
});

const run = (format: string, columns: number) =>
  runMainAgainst(sandbox, ['match', '--catalog', catalog, '-f', format], { clock: fakeClock(FIXED_START), columns });

describe('match -f table', () => {
  it('matches first, then excluded rows, by severity within each; severity and name are shown', async () => {
    const r = await run('table', 400);
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n').find((l) => l.includes('level'));
    expect(header).toBeDefined();
    for (const h of ['level', 'name', 'lot', 'risk_severity', 'recall_id', 'alert_title', 'scope_evidence'])
      expect(header).toMatch(new RegExp(`\\b${h}\\b`));
    const names = ['Nature-in-lot', 'Nature-other-lot', 'Fraise-in-lot', 'Fraise-other-lot'];
    const order = names
      .map((n) => ({ n, at: r.stdout.indexOf(n) }))
      .sort((a, b) => a.at - b.at)
      .map((x) => x.n);
    expect(order).toEqual(['Fraise-in-lot', 'Nature-in-lot', 'Fraise-other-lot', 'Nature-other-lot']);
    const line = (n: string) => r.stdout.split('\n').find((l) => l.includes(n)) ?? '';
    expect(line('Fraise-in-lot')).toMatch(/\bmatch\b.*\bserious\b/);
    expect(line('Nature-other-lot')).toMatch(/\bexcluded\b.*\blow\b/);
  });

  it('the machine formats keep the order found and their columns (the new table column is no csv column)', async () => {
    const jsonl = jsonLines((await run('jsonl', 400)).stdout) as Rec[];
    const csv = (await run('csv', 400)).stdout.split('\n')[0];
    expect(csv).toBe(
      'level,reason,catalog_line,sku,ean,name,lot,recall_id,alert_title,risk_severity,data_source,published_at,source_url,scope,scope_evidence',
    );
    // Per notice, as the matcher lists them: its match, then its excluded row.
    const levels = jsonl.map((x) => x.level);
    expect(levels.filter((l) => l === 'match')).toHaveLength(2);
    expect(levels.indexOf('excluded')).toBeLessThan(levels.lastIndexOf('match'));
  });

  it('never cuts a column below its header, however narrow the terminal', async () => {
    for (const columns of [60, 100, 160, 220]) {
      const r = await run('table', columns);
      expect(r.code).toBe(0);
      for (const h of [
        'level',
        'reason',
        'scope',
        'catalog_line',
        'name',
        'lot',
        'risk_severity',
        'recall_id',
        'alert_title',
        'scope_evidence',
      ])
        expect(r.stdout, `${h} at ${columns} columns`).toMatch(new RegExp(`\\b${h}\\b`));
    }
  });
});
