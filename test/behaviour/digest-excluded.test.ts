// `digest --catalog` on both engines: a row out of a notice's lots and dates comes after the matches in "your
// products", with the notice's words, in text, markdown, html and the JSON (valid against schemas/); it counts as no match.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const LINE = '3564709006031 V028 Date de durabilité minimale 04/04/2021';
const EVIDENCE = `standard_identifiers_and_barcodes: "${LINE}"`;
const SCHEMA = path.resolve(import.meta.dirname, '..', '..', 'schemas', 'digest.schema.json');

describe.each(ENGINES)('digest on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  it('lists the excluded row after the match, with its evidence, in every format', async () => {
    const dir = tempDir('rf-digest-excluded-');
    const sandbox = await sandboxFor({ recordCount: 10, seed: 6 });
    const [added] = sandbox.addRecords([
      { alert_title: 'Yaourt nature', risk_severity: 'serious', standard_identifiers_and_barcodes: [LINE] },
    ]);
    const recallId = (added as { id: number }).id;
    const { db } = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    const catalog = path.join(dir, 'products.csv');
    // B first in the file: the digest still lists the match A before it.
    writeFileSync(catalog, 'sku,ean,name,lot\nB,3564709006031,Yaourt B,V031\nA,3564709006031,Yaourt A,V028\n');
    const base = ['digest', '--db', db, '--catalog', catalog];

    const json = await runMainAgainst(sandbox, [...base, '-f', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const d = JSON.parse(json.stdout) as Rec;
    const ours = (d.products as Rec[]).filter((p) => p.recall_id === recallId);
    expect(ours.map((p) => [p.key, p.level, p.scope, p.scope_evidence])).toEqual([
      ['A', 'match', 'in-scope', EVIDENCE],
      ['B', 'excluded', 'out-of-scope', EVIDENCE],
    ]);
    expect((d.matches as Rec[]).filter((m) => m.recall_id === recallId).map((m) => [m.sku, m.scope_evidence])).toEqual([
      ['A', EVIDENCE],
      ['B', EVIDENCE],
    ]);
    const ajv = new Ajv2020({ allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as Rec);
    expect(validate(d) ? 'valid' : ajv.errorsText(validate.errors)).toBe('valid');

    const text = await runMainAgainst(sandbox, base);
    const lines = text.stdout.split('\n');
    // Only A is counted as matching: the excluded row is no match.
    expect(lines[0]).toMatch(/: 1 of your products matches \(1 serious\)/);
    const a = lines.findIndex((l) => l.endsWith('sku A · Yaourt A'));
    const b = lines.findIndex((l) => l.endsWith('sku B · Yaourt B'));
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    expect(lines[b]).toMatch(/^\s+excluded\s+sku B/);
    expect(lines.slice(b, b + 4).join('\n')).toContain(`out of scope: ${EVIDENCE}`);

    const md = await runMainAgainst(sandbox, [...base, '-f', 'markdown']);
    expect(md.stdout).toContain('Date de durabilité minimale 04/04/2021');
    expect(md.stdout).toMatch(/excluded.*sku B/);

    const html = await runMainAgainst(sandbox, [...base, '-f', 'html']);
    // Written out by hand, not by the code under test: the quotes around the line escaped as HTML.
    expect(html.stdout).toContain(`out of scope: standard_identifiers_and_barcodes: &quot;${LINE}&quot;`);
  });
});
