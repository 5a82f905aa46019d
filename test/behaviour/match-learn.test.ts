// `match --learn` end to end on both engines: cases opened by match, closed by people, learned from, and read back by match.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;

describe.each(ENGINES)('match --learn on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const dir = tempDir('rf-learn-');
  const catalog = path.join(dir, 'products.csv');
  let sandbox: Sandbox;
  let db: string;
  const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(FIXED_START + 3_600_000) });

  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    // Two notices of one brand; the catalogue holds a row of each product named as the notices name them.
    sandbox.addRecords([
      {
        data_source: 'us_cpsc',
        product_brand: 'Nordvik',
        product_name: 'Kielbasa Turkey Sausage',
        standard_identifiers_and_barcodes: [],
      },
      {
        data_source: 'us_cpsc',
        product_brand: 'Nordvik',
        product_name: 'Kielbasa Pork Sausage links',
        standard_identifiers_and_barcodes: [],
      },
    ]);
    writeFileSync(catalog, 'sku,brand,name\nK1,Nordvik,Kielbasa Turkey Sausage\nK2,Nordvik,Kielbasa Pork Sausage\n');
    ({ db } = await testArchive(engine));
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
    const opened = await run(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases', '--key', 'sku']);
    expect(opened.code, opened.stderr).toBe(0);
  });

  it('learns the tiers and words of the closed cases, writes them beside the catalogue, and match reads them', async () => {
    const cases = jsonLines((await run(['cases', '--db', db, '-f', 'jsonl'])).stdout) as Rec[];
    expect(cases.length).toBeGreaterThanOrEqual(2);
    // People close every case as wrong: the words these pairs shared misled.
    for (const c of cases) {
      const r = await run(['cases', 'resolve', String(c.id), '--as', 'false-positive', '--db', db, '--by', 'alice']);
      expect(r.code, r.stderr).toBe(0);
    }
    const learn = await run(['match', '--learn', '--catalog', catalog, '--db', db, '--key', 'sku', '-f', 'jsonl']);
    expect(learn.code, learn.stderr).toBe(0);
    const file = `${catalog}.learned.json`;
    expect(existsSync(file)).toBe(true);
    const learned = JSON.parse(readFileSync(file, 'utf8')) as Rec;
    const byTier = new Map<string, Rec>();
    for (const c of cases) byTier.set(c.reason, { confirmed: 0, wrong: (byTier.get(c.reason)?.wrong ?? 0) + 1 });
    // Each tier counted as the cases were closed; too few to judge, so none promoted.
    for (const [tier, t] of byTier) expect(learned.tiers[tier]).toMatchObject({ ...t, lower: null });
    expect(
      jsonLines(learn.stdout)
        .map((r: Rec) => r.tier)
        .sort(),
    ).toEqual([...byTier.keys()].sort());
    expect(learn.stderr).toContain(`learned from ${cases.length} closed cases`);
    // "kielbasa" and "sausage" were shared by every wrong pair: they weigh half from now on.
    expect(learned.words).toMatchObject({ kielbasa: 0.5, sausage: 0.5 });
    const after = await run(['match', '--catalog', catalog, '--archive', '--db', db, '--explain', '-f', 'jsonl']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).not.toContain('warning');
  });

  it('a learned file that is not one is said and ignored; match still runs', async () => {
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{ nope');
    const r = await run(['match', '--catalog', catalog, '--archive', '--db', db, '--learned', broken, '-f', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${broken} is not a file match --learn wrote: ignored`);
    // A file named that is not there is said too (a typo would drop what was learned); the default one is not.
    const missing = path.join(dir, 'lerned.json');
    const m = await run(['match', '--catalog', catalog, '--archive', '--db', db, '--learned', missing, '-f', 'jsonl']);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stderr).toContain(
      `warning: --learned ${missing}: no such file; matching without what match --learn learned\n`,
    );
    const quiet = await run(['match', '--catalog', catalog, '--archive', '--db', db, '-f', 'jsonl']);
    expect(quiet.stderr).not.toContain('--learned');
  });

  it('--learn needs the catalogue, and refuses flags of another run before reading anything', async () => {
    const r = await run(['match', '--learn', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--learn needs the catalogue the cases were opened on');
    const w = await run(['match', '--learn', '--catalog', catalog, '--db', db, '--watch']);
    expect(w.code).toBe(2);
    expect(w.stderr).toContain('--watch does not apply');
  });
});

describe.each(ENGINES)('match --learn learns brand aliases from the archive on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const dir = tempDir('rf-learn-alias-');
  const catalog = path.join(dir, 'products.csv');
  let sandbox: Sandbox;
  let db: string;
  const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(FIXED_START + 3_600_000) });
  const importer = [{ name: 'Target Corporation, of Minneapolis, Minnesota', role: 'importer', country: 'US' }];

  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    // The firm's first notice names its own brand in the title; the second names none.
    sandbox.addRecords([
      {
        data_source: 'us_cpsc',
        product_brand: 'Target',
        alert_title: 'Target Recalls Cat & Jack Toddler Boots Due to Fall Hazard',
        product_name: 'Cat & Jack Toddler Boots',
        involved_parties: importer,
        standard_identifiers_and_barcodes: [],
        product_model_numbers: [],
      },
      {
        data_source: 'us_cpsc',
        product_brand: 'Target',
        alert_title: 'Target Recalls Toddler Rain Boots Due to Slip Hazard',
        product_name: 'Toddler Rain Boots',
        involved_parties: importer,
        standard_identifiers_and_barcodes: [],
        product_model_numbers: [],
      },
    ]);
    writeFileSync(catalog, 'sku,brand,name\nR1,Cat & Jack,Toddler Rain Boots\n');
    ({ db } = await testArchive(engine));
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
  });

  it('writes the firm and the brand it recalls under; match then finds the row from the notice that names no brand', async () => {
    const matchRows = async () => {
      const r = await run([
        'match',
        '--catalog',
        catalog,
        '--archive',
        '--db',
        db,
        '--explain',
        '--full',
        '-f',
        'jsonl',
      ]);
      expect(r.code, r.stderr).toBe(0);
      return jsonLines(r.stdout) as Rec[];
    };
    const titleOf = (row: Rec) => String(row.alert_title);
    const before = await matchRows();
    expect(before.map(titleOf).some((t) => t.includes('Rain Boots'))).toBe(false);
    const learn = await run(['match', '--learn', '--catalog', catalog, '--db', db, '--key', 'sku', '-f', 'jsonl']);
    expect(learn.code, learn.stderr).toBe(0);
    expect(learn.stderr).toContain("1 brands learned under another firm's name from 2 notices");
    const learned = JSON.parse(readFileSync(`${catalog}.learned.json`, 'utf8')) as Rec;
    expect(learned.aliases).toEqual({ target: { 'cat jack': { notices: 1, cases: 0, wrong: 0 } } });
    expect(learned.catalogue_sha256).toBe(createHash('sha256').update(readFileSync(catalog)).digest('hex'));
    const after = await matchRows();
    const rain = after.filter((row) => titleOf(row).includes('Rain Boots'));
    expect(rain).toHaveLength(1);
    expect(rain[0]).toMatchObject({ level: 'possible', reason: 'brand+name' });
    expect(String(rain[0]?.explain)).toContain('as match --learn learned it');

    // The pair opened as a case and closed as not our product: learning again drops the alias, and the row.
    const opened = await run(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases', '--key', 'sku']);
    expect(opened.code, opened.stderr).toBe(0);
    const cases = jsonLines((await run(['cases', '--db', db, '-f', 'jsonl'])).stdout) as Rec[];
    const rainCase = cases.find((c) => String(c.alert_title).includes('Rain Boots'));
    expect(rainCase).toBeDefined();
    for (const c of cases) {
      const r = await run(['cases', 'resolve', String(c.id), '--as', 'not-our-product', '--db', db, '--by', 'alice']);
      expect(r.code, r.stderr).toBe(0);
    }
    const again = await run(['match', '--learn', '--catalog', catalog, '--db', db, '--key', 'sku', '-f', 'jsonl']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(`${catalog}.learned.json`, 'utf8')).aliases).toEqual({});
    expect((await matchRows()).map(titleOf).some((t) => t.includes('Rain Boots'))).toBe(false);
  });
});
