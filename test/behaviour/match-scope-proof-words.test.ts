// `match` in process against the sandbox: a notice whose words make a scope whole ("Lot: All") or open ("and any earlier
// date") never gets a row it covers excluded, and a row its read bound leaves out still is.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-scope-words-');
const CHOCOLATE = '5012345678900';
const PIE = '5098765432100';
let sandbox: Sandbox;
const ids: Record<string, number> = {};

/** The fields a scope is read from, all set: nothing generated adds scope words of its own. */
const notice = (ean: string, name: string, production_dates: string) => ({
  data_source: 'uk_opss',
  alert_title: `${name} recalled`,
  product_brand: 'Acme',
  product_name: name,
  product_model_numbers: [],
  product_description: '',
  packaging_description: null,
  alert_summary: '',
  measure_details: '',
  hazard_description: '',
  standard_identifiers_and_barcodes: [{ type: 'EAN', value: ean }],
  production_dates,
  geo_jurisdictions: ['GB'],
});

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 0, seed: 5, clock: () => FIXED_START });
  const [chocolate, pie] = sandbox.addRecords([
    notice(CHOCOLATE, 'Chocolate bar', 'Chocolate bar 100g, Lot: All. Chocolate bar 200g, Lot: 1234.'),
    notice(PIE, 'Pork pie', 'Use by: 30 June 2025 and any earlier date'),
  ]);
  ids.chocolate = (chocolate as { id: number }).id;
  ids.pie = (pie as { id: number }).id;
});

describe('match: words that make a scope whole or open', () => {
  it('keeps the rows they cover as matches (exit 8) and still excludes the row the read bound leaves out', async () => {
    const file = path.join(dir, 'products.csv');
    writeFileSync(
      file,
      [
        'sku,ean,brand,name,lot,best_before',
        `C1,${CHOCOLATE},Acme,Chocolate bar,9999,`,
        `P1,${PIE},Acme,Pork pie,,01/06/2025`,
        `P2,${PIE},Acme,Pork pie,,15/07/2025`,
      ].join('\n'),
    );
    // On a terminal, where the last line (the counts) is said.
    const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl', '--exit-code'], {
      clock: fakeClock(FIXED_START),
      stderrIsTTY: true,
    });
    expect(r.code, r.stderr + r.stdout).toBe(8);
    const rows = (jsonLines(r.stdout) as Rec[])
      .map((x) => [x.sku, x.recall_id, x.level, x.scope, x.scope_evidence])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(rows).toEqual([
      ['C1', ids.chocolate, 'match', 'in-scope', 'production_dates: "Lot: All"'],
      ['P1', ids.pie, 'match', 'in-scope', 'production_dates: "Use by: 30 June 2025 and any earlier date"'],
      ['P2', ids.pie, 'excluded', 'out-of-scope', 'production_dates: "Use by: 30 June 2025 and any earlier date"'],
    ]);
    expect(r.stderr).toContain('· 2 matches · 0 possible · 1 excluded (out of scope)');
  });
});
