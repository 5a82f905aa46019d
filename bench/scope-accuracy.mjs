// Scope accuracy of `match` on generated notices, per class of scope: rows inside never excluded, rows outside proved out.
// Usage: npm run build && node bench/scope-accuracy.mjs [cases]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { Claims, GENEROUS_LIMITS, requireBuild } from './lib/common.mjs';
import { runMatchInProcess } from './lib/in-process-match.mjs';
import { GEO, generatedCase } from '../test/fixtures/scope-notices.mjs';
import { intoWindow, loadRecalls } from '../test/fixtures/real-notices/quality.mjs';

const CASES = Number(process.argv[2] ?? 3000);

/** An EAN-13 of our own for case i ("20" in-store prefix), its check digit computed here, not by the code measured. */
function ean(i) {
  const body = `20${String(i).padStart(10, '0')}`;
  const sum = [...body].reduce((s, d, k) => s + Number(d) * (k % 2 === 0 ? 1 : 3), 0);
  return body + String((10 - (sum % 10)) % 10);
}

const claims = new Claims('scope-accuracy');
let sandbox;
const dir = mkdtempSync(path.join(os.tmpdir(), 'recall-feed-bench-scope-'));
try {
  requireBuild();
  const { main } = await import('../dist/cli/main.js');
  const { DEMO_KEYS, startSandbox } = await import('../dist/sandbox/index.js');
  const cases = fc.sample(generatedCase, { numRuns: CASES, seed: 2026 });
  // One real notice as the template of every generated one: only the scope fields and the barcode change.
  const template = loadRecalls()[0];
  const recalls = cases.map((c, i) => ({
    ...template,
    id: 900_000 + i,
    alert_title: `Generated notice ${i}`,
    product_name: `Product ${i}`,
    product_brand: '',
    product_model_numbers: [],
    product_description: '',
    packaging_description: null,
    production_dates: '',
    standard_identifiers_and_barcodes: [{ type: 'EAN', value: ean(i) }],
    geo_jurisdictions: [GEO[c.locale]],
    [c.field]: c.text,
  }));
  const quote = (v) => `"${String(v ?? '').replaceAll('"', '""')}"`;
  const catalogue = path.join(dir, 'catalogue.csv');
  writeFileSync(
    catalogue,
    ['sku,ean,lot,best_before', ...cases.map((c, i) => [`G-${i}`, ean(i), quote(c.lot), quote(c.bb)].join(','))].join(
      '\n',
    ),
  );
  sandbox = await startSandbox({ port: 0, recordCount: 0, rateLimits: GENEROUS_LIMITS });
  sandbox.addRecords(intoWindow(recalls, Date.now()));
  const { code, rows, stderr } = await runMatchInProcess(main, sandbox.url, DEMO_KEYS.all.key, dir, catalogue);
  const bySku = new Map();
  for (const row of rows) bySku.set(row.sku, row);

  const classes = new Map();
  let wronglyExcluded = 0;
  let missing = 0;
  cases.forEach((c, i) => {
    const row = bySku.get(`G-${i}`);
    if (!row) missing++;
    const k = classes.get(c.cls) ?? { inside: 0, insideIn: 0, insideVerify: 0, outside: 0, outsideOut: 0, wrong: 0 };
    if (c.inside) {
      k.inside++;
      if (row?.scope === 'in-scope') k.insideIn++;
      else if (row?.level !== 'excluded') k.insideVerify++;
      if (row?.level === 'excluded') {
        k.wrong++;
        wronglyExcluded++;
        // Each one, to reproduce: the generated notice's words, the row's lot and date, and what excluded it.
        console.log(
          `WRONGLY EXCLUDED ${c.cls}: ${JSON.stringify(c.text)} lot ${JSON.stringify(c.lot)} bb ${JSON.stringify(c.bb)}: ${row.scope_evidence}`,
        );
      }
    } else {
      k.outside++;
      if (row?.level === 'excluded') k.outsideOut++;
    }
    classes.set(c.cls, k);
  });
  const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
  console.log(`${CASES} generated notices (seed 2026), one catalogue row each; match exit ${code}\n`);
  console.log('class       inside  in-scope  verify  WRONGLY EXCLUDED  outside  proved out');
  for (const [cls, k] of [...classes].sort()) {
    console.log(
      `${cls.padEnd(10)}  ${String(k.inside).padStart(6)}  ${pct(k.insideIn, k.inside).padStart(8)}  ${pct(k.insideVerify, k.inside).padStart(6)}  ${String(k.wrong).padStart(16)}  ${String(k.outside).padStart(7)}  ${pct(k.outsideOut, k.outside).padStart(10)}`,
    );
  }
  claims.check('match exits 0', code === 0, code === 0 ? '' : stderr.slice(0, 300));
  claims.check('every generated row is found by its barcode', missing === 0, `${missing} missing`);
  claims.check(
    'no row inside its notice scope is excluded',
    wronglyExcluded === 0,
    `${wronglyExcluded} wrongly excluded`,
  );
  claims.headline = `${wronglyExcluded} wrongly excluded of ${cases.filter((c) => c.inside).length} inside`;
} finally {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
}
claims.finish();
