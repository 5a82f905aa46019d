// One case opened in a synced archive: a catalogue of one row holding the barcode of a stored recall, matched with
// --open-cases. For tests of case steps (stops, lost connections, upgrades) that need a case and nothing more.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from './in-process.js';
import { jsonLines } from './sandbox.js';
import { tempDir } from './temp-dir.js';

/** Opens a case on the first stored recall with an EAN in the archive at `db` (synced from `sandbox`): its id. */
export async function openOneCase(sandbox: Sandbox, db: string): Promise<string> {
  const stored = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl']);
  const ean = jsonLines(stored.stdout)
    .flatMap(
      (r) =>
        (r as { standard_identifiers_and_barcodes: { type: string; value: string }[] })
          .standard_identifiers_and_barcodes,
    )
    .find((c) => c.type === 'EAN' && /^\d{13}$/.test(c.value));
  if (!ean) throw new Error('the sandbox served no record with an EAN');
  const catalogue = path.join(tempDir('rf-one-case-'), 'c.csv');
  writeFileSync(catalogue, `sku,ean\nS-1,${ean.value}\n`);
  const open = await runMainAgainst(sandbox, [
    'match',
    '--archive',
    '--open-cases',
    '--catalog',
    catalogue,
    '--db',
    db,
  ]);
  expect(open.code, open.stderr).toBe(0);
  const listed = await runMainAgainst(sandbox, ['cases', '--db', db, '-f', 'jsonl']);
  return String((jsonLines(listed.stdout)[0] as { id: number }).id);
}
