// `match` in process against the sandbox: rows out of a notice's lots and dates are listed as `excluded`, with evidence, and never raise the exit code.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-scope-');
/** RappelConso's line for a yoghurt: GTIN, lot, best-before date (the issue's own example). */
const LINE = '3564709006031 V028 Date de durabilité minimale 04/04/2021';
const EVIDENCE = `standard_identifiers_and_barcodes: "${LINE}"`;
let sandbox: Sandbox;
let recallId: number;

function catalogue(name: string, rows: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, `sku,ean,name,lot,best_before\n${rows.join('\n')}\n`);
  return file;
}

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 30, seed: 5, clock: () => FIXED_START });
  const [added] = sandbox.addRecords([
    {
      data_source: 'rappel_conso',
      alert_title: 'Yaourt nature',
      product_brand: 'Laiterie',
      product_name: 'Yaourt nature',
      product_model_numbers: [],
      standard_identifiers_and_barcodes: [LINE],
      production_dates: 'Du 01/03/2021 au 20/03/2021',
    },
  ]);
  recallId = (added as { id: number }).id;
});

const run = (args: string[], columns?: number) =>
  runMainAgainst(sandbox, ['match', ...args], { clock: fakeClock(FIXED_START), ...(columns && { columns }) });

describe('match: lot and date scope', () => {
  it('lot V028 is in scope and a match (exit 8); lot V031 and a later date are excluded, listed with the notice line', async () => {
    const file = catalogue('mixed.csv', [
      'A,3564709006031,Yaourt,V028,',
      'B,3564709006031,Yaourt,V031,',
      'C,03564709006031,Yaourt,,05/04/2021',
      'D,3564709006031,Yaourt,,',
    ]);
    // -v: the last line (the counts) is said off a terminal too.
    const r = await run(['--catalog', file, '-f', 'jsonl', '--exit-code', '-v']);
    expect(r.code).toBe(8);
    const rows = (jsonLines(r.stdout) as Rec[]).filter((x) => x.recall_id === recallId);
    expect(rows.map((x) => [x.sku, x.level, x.reason, x.scope])).toEqual([
      ['A', 'match', 'barcode', 'in-scope'],
      ['D', 'match', 'barcode', 'unknown'],
      ['B', 'excluded', 'barcode', 'out-of-scope'],
      ['C', 'excluded', 'barcode', 'out-of-scope'],
    ]);
    expect(rows[0]?.scope_evidence).toBe(EVIDENCE);
    expect(rows[2]?.scope_evidence).toBe(EVIDENCE);
    expect(rows[3]?.scope_evidence).toBe('standard_identifiers_and_barcodes: "Date de durabilité minimale 04/04/2021"');
    expect(r.stderr).toContain('· 2 matches · 0 possible · 2 excluded (out of scope)');
  });

  it('only excluded rows: exit 0 with --exit-code, and every format lists them with their evidence', async () => {
    const file = catalogue('other-lot.csv', ['B,3564709006031,Yaourt,V031,']);
    const jsonl = await run(['--catalog', file, '-f', 'jsonl', '--exit-code']);
    expect(jsonl.code).toBe(0);
    expect(jsonLines(jsonl.stdout)).toEqual([
      expect.objectContaining({ level: 'excluded', scope: 'out-of-scope', scope_evidence: EVIDENCE, sku: 'B' }),
    ]);
    const json = await run(['--catalog', file, '-f', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ level: 'excluded', scope_evidence: EVIDENCE })]);
    const csv = await run(['--catalog', file, '-f', 'csv']);
    const [header, line] = csv.stdout.split(/\r?\n/);
    expect(header?.split(',').slice(-2)).toEqual(['scope', 'scope_evidence']);
    expect(line).toMatch(/^excluded,barcode,1,B,/);
    expect(line).toContain('out-of-scope,"standard_identifiers_and_barcodes: ""3564709006031 V028');
    const table = await run(['--catalog', file, '-f', 'table'], 400);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('excluded');
    expect(table.stdout).toContain('out-of-scope');
    expect(table.stdout).toContain('V028');
  });

  it('--explain names the rule and the normalised values', async () => {
    const file = catalogue('explain.csv', ['A,0003564709006031,Yaourt,V028,']);
    const r = await run(['--catalog', file, '-f', 'jsonl', '--explain']);
    expect(jsonLines(r.stdout)).toEqual([
      expect.objectContaining({
        // The rule, then the scope: what the reader read in the notice (the sale period can never prove), the
        // row's lot and date, the answer and the notice's words that decided it.
        explain:
          'barcode: notice "3564709006031" = catalogue "0003564709006031" (GTIN-14 03564709006031, check digit valid)' +
          '; scope read: best-before 2021-04-04, lot v028, maybe period 2021-03-01 to 2021-03-20; row lot "V028", no date: ' +
          'in-scope (standard_identifiers_and_barcodes: "3564709006031 V028 Date de durabilité minimale 04/04/2021")',
      }),
    ]);
  });
});

describe.each(ENGINES)('match --archive on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  it('gives the same rows, scope and evidence as the live window', async () => {
    const { db } = await testArchive(engine);
    const synced = await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) });
    expect(synced.code).toBe(0);
    const file = catalogue(`archive-${engine}.csv`, ['A,3564709006031,Yaourt,V028,', 'B,3564709006031,Yaourt,V031,']);
    const live = await run(['--catalog', file, '-f', 'jsonl']);
    const offline = await run(['--catalog', file, '-f', 'jsonl', '--archive', '--db', db]);
    expect(offline.code).toBe(0);
    const pick = (out: string) =>
      (jsonLines(out) as Rec[]).map((x) => [x.sku, x.recall_id, x.level, x.scope, x.scope_evidence]);
    expect(pick(offline.stdout)).toEqual(pick(live.stdout));
    expect(pick(offline.stdout)).toContainEqual(['B', recallId, 'excluded', 'out-of-scope', EVIDENCE]);
  });
});
