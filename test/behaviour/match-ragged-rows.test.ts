// A CSV row with more or fewer cells than its header ("Gadget Pro, 2024 edition" unquoted) is read as it falls: its
// "lot" may be the end of its name, so it never excludes the row, and stderr names the rows, whole or streamed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { largeEnoughToStream } from '../../src/jobs/match/stream-match.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-match-ragged-');

const GADGET = {
  alert_title: 'Acmeco recalls Gadget Pro',
  product_name: 'Gadget Pro',
  product_brand: 'Acmeco',
  standard_identifiers_and_barcodes: [{ type: 'EAN', value: '5901234123457' }],
  product_model_numbers: ['GP-5000'],
  production_dates: 'Lot L555',
  geo_jurisdictions: ['FR'],
};

const CSV = [
  'sku,ean,brand,lot,model,name',
  // A cell short (the lot left out): the model stands in the lot column.
  'S2,5901234123457,Acmeco,GP-5000,Gadget Pro',
  // A cell over (a comma in the brand, "Acmeco, 2024" unquoted): "2024" stands in the lot column, the recalled L555 beside it.
  'S3,5901234123457,Acmeco, 2024,L555,GP-5000,Gadget Pro',
  // Lined up, with a lot the notice does not name: out of scope on proof.
  'S4,5901234123457,Acmeco,L999,GP-5000,Gadget Pro',
].join('\n');

describe('a catalogue row whose cells do not line up with the header', () => {
  it.each([
    ['held whole', false],
    ['streamed', true],
  ])('%s: is never excluded by what stands in its lot column, and stderr names it', async (_, streamed) => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    sandbox.addRecords([GADGET]);
    const file = path.join(dir, streamed ? 'big.csv' : 'small.csv');
    writeFileSync(file, streamed ? paddedToStream(CSV, (i) => `F${i},,,,,Qwzt vrk ${i}`).text : `${CSV}\n`);
    expect(await largeEnoughToStream(file)).toBe(streamed);
    const run = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl', '--exit-code']);
    expect(run.code, run.stderr).toBe(8);
    const rows = Object.fromEntries(jsonLines(run.stdout).map((r) => [r.sku, r]));
    expect(rows.S2).toMatchObject({ level: 'match', scope: 'unknown' });
    expect(rows.S2?.scope_evidence).toContain('the catalogue row has 5 cells where its header has 6');
    expect(rows.S3).toMatchObject({ level: 'match', scope: 'unknown' });
    expect(rows.S3?.scope_evidence).toContain('the catalogue row has 7 cells where its header has 6');
    expect(rows.S4).toMatchObject({ level: 'excluded', scope: 'out-of-scope' });
    expect(run.stderr).toContain(
      "warning: catalogue rows 1, 2: not the header's 6 cells (a comma in an unquoted value?); read as they fall, and their lot and date never exclude them: quote such values",
    );
    await sandbox.close();
  });
});

describe('rows that end with a delimiter, and rows that line up', () => {
  it.each([
    // Each data row ends with a delimiter, the header does not.
    ['sku,ean,brand,lot,model,name', 'S4,5901234123457,Acmeco,L999,GP-5000,Gadget Pro,'],
    // Both end with one: the header's last column has no name.
    ['sku,ean,brand,lot,model,name,', 'S4,5901234123457,Acmeco,L999,GP-5000,Gadget Pro,'],
  ])(
    '%s / %s: no warning (every row ends alike), yet never excluded: a shifted row would look the same',
    async (header, row) => {
      const sandbox = await sandboxFor({ recordCount: 0 });
      sandbox.addRecords([GADGET]);
      const file = path.join(dir, 'trailing.csv');
      writeFileSync(file, `${header}\n${row}\n`);
      const run = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl']);
      expect(run.code, run.stderr).toBe(0);
      const [only] = jsonLines(run.stdout);
      expect(only).toMatchObject({ sku: 'S4', level: 'match', scope: 'unknown' });
      expect(only?.scope_evidence).toContain('the catalogue row has 7 cells where its header has 6');
      expect(run.stderr).not.toContain('warning');
      await sandbox.close();
    },
  );

  it('the header ends with a blank column the rows leave out: they line up, excluded on proof, no warning', async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    sandbox.addRecords([GADGET]);
    const file = path.join(dir, 'header-trailing.csv');
    writeFileSync(file, 'sku,ean,brand,lot,model,name,\nS4,5901234123457,Acmeco,L999,GP-5000,Gadget Pro\n');
    const run = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl']);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)).toMatchObject([{ sku: 'S4', level: 'excluded', scope: 'out-of-scope' }]);
    expect(run.stderr).not.toContain('warning');
    await sandbox.close();
  });

  it('a value pushed into the blank-named last column is a shift, trailing delimiter or not', async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    sandbox.addRecords([GADGET]);
    const file = path.join(dir, 'shifted-trailing.csv');
    writeFileSync(file, 'sku,ean,brand,lot,model,name,\nS3,5901234123457,Acmeco, 2024,L555,GP-5000,Gadget Pro,\n');
    const run = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl']);
    expect(jsonLines(run.stdout)).toMatchObject([{ sku: 'S3', level: 'match', scope: 'unknown' }]);
    expect(run.stderr).toContain('warning: catalogue row 1: not the header');
    await sandbox.close();
  });
});
