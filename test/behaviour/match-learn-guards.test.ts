// `match --learn` learns only from this catalogue's cases, on the rows they were opened on; its --learned file never
// replaces the archive and is checked as -o is before anything is read; flags it would ignore are refused.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeLearned } from '../../src/jobs/match/learned-target.js';
import { CannotWriteError } from '../../src/runtime/cli-errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;

const dir = tempDir('rf-learn-guards-');
const db = path.join(dir, 'a.db');
/** Known by sku; the price is no part of the product. */
const keyed = path.join(dir, 'keyed.csv');
/** No key column: rows are known by their line (`line:<n>`). */
const lines = path.join(dir, 'lines.csv');
const LINES = 'brand,name\nAlpha,Garden Chair\nBravo,Toy Drum\n';
let sandbox: Sandbox;
let cases: Rec[];
const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(FIXED_START + 3_600_000) });
const learn = (catalog: string, learned: string, more: string[] = []) =>
  run(['match', '--learn', '--catalog', catalog, '--db', db, '--learned', learned, '-f', 'jsonl', ...more]);
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Rec;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
  sandbox.addRecords([
    {
      data_source: 'us_cpsc',
      product_brand: 'Nordvik',
      product_name: 'Kielbasa Turkey Sausage',
      standard_identifiers_and_barcodes: [],
      product_model_numbers: [],
    },
    {
      data_source: 'us_cpsc',
      product_brand: 'Alpha',
      alert_title: 'Alpha Recalls Garden Chairs Due to Fall Hazard',
      product_name: 'Garden Chair',
      involved_parties: [{ name: 'Kestrel Holdings Inc', role: 'importer', country: 'US' }],
      standard_identifiers_and_barcodes: [],
      product_model_numbers: [],
    },
  ]);
  writeFileSync(keyed, 'sku,brand,name,price\nK1,Nordvik,Kielbasa Turkey Sausage,3.10\n');
  writeFileSync(lines, LINES);
  expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
  for (const catalog of [keyed, lines]) {
    const opened = await run(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases']);
    expect(opened.code, opened.stderr).toBe(0);
  }
  cases = jsonLines((await run(['cases', '--db', db, '-f', 'jsonl'])).stdout) as Rec[];
  // One case per catalogue: K1's, and Alpha Garden Chair's on its line.
  expect(cases.map((c) => c.catalog_key).sort()).toEqual(['line:1', 'sku:K1']);
  for (const c of cases) {
    const r = await run(['cases', 'resolve', String(c.id), '--as', 'removed-from-sale', '--db', db, '--by', 'alice']);
    expect(r.code, r.stderr).toBe(0);
  }
});

const caseOf = (key: string) => cases.find((c) => c.catalog_key === key) as Rec;

describe('match --learn counts only the cases of this catalogue, on the rows they were opened on', () => {
  it("a row whose other cells changed (its price, a barcode column added) is still the case's product: its case teaches", async () => {
    writeFileSync(keyed, 'sku,ean,brand,name,price\nK1,4006381333931,Nordvik,Kielbasa Turkey Sausage,3.40\n');
    const out = path.join(dir, 'keyed.learned.json');
    const r = await learn(keyed, out);
    expect(r.code, r.stderr).toBe(0);
    const tiers = read(out).tiers as Rec;
    expect(Object.keys(tiers)).toEqual([caseOf('sku:K1').reason]);
    expect(tiers[caseOf('sku:K1').reason]).toMatchObject({ confirmed: 1, wrong: 0, lower: null });
    // The other catalogue's case is left out, and said.
    expect(r.stderr).toContain(
      "learned from 1 closed cases (10 per tier needed; 1 left out: their rows are not this catalogue's as they were)",
    );
  });

  it("another catalogue's cases teach nothing, not even when it lists the same brand", async () => {
    const other = path.join(dir, 'other.csv');
    writeFileSync(other, 'sku,brand,name\nZ-9,Nordvik,Kielbasa Pork Sausage\n');
    const out = path.join(dir, 'other.learned.json');
    const r = await learn(other, out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(read(out)).toMatchObject({ cases: 0, tiers: {}, words: {}, aliases: {} });
    expect(r.stderr).toContain(`learned from 0 closed cases (10 per tier needed; ${cases.length} left out`);
  });

  it('a catalogue known by line numbers and re-sorted: the line now holds another product, which learns no alias', async () => {
    const resorted = path.join(dir, 'resorted.csv');
    // line:1 was Alpha Garden Chair when its case was opened; it is Bravo Toy Drum now.
    writeFileSync(resorted, 'brand,name\nBravo,Toy Drum\nAlpha,Garden Chair\n');
    const out = path.join(dir, 'resorted.learned.json');
    const r = await learn(resorted, out);
    expect(r.code, r.stderr).toBe(0);
    const learned = read(out);
    // Neither the notice's brand nor its importer recalls under Bravo.
    expect(learned.aliases).toEqual({});
    expect(learned.tiers).toEqual({});
    // Unsorted, the same case teaches.
    const same = path.join(dir, 'lines.learned.json');
    const again = await learn(lines, same);
    expect(again.code, again.stderr).toBe(0);
    expect(Object.keys(read(same).tiers)).toEqual([caseOf('line:1').reason]);
  });
});

describe('--learned is checked as -o is, before the catalogue or the cases are read', () => {
  it('naming the archive is exit 2, the archive untouched', async () => {
    // A copy: the shared archive stays whole whatever this run does.
    const copy = path.join(dir, 'copy.db');
    copyFileSync(db, copy);
    const before = readFileSync(copy);
    const r = await run(['match', '--learn', '--catalog', keyed, '--db', copy, '--learned', copy, '-f', 'jsonl']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: --learned ${copy} is the archive: writing there would replace it\nhint: give --learned another file\n`,
    );
    expect(readFileSync(copy).equals(before)).toBe(true);
  });

  it.each([
    [
      'a missing folder',
      () => path.join(dir, 'nodir', 'x.json'),
      10,
      'its folder does not exist',
      'create the folder first, or check the path',
    ],
    [
      'a file as its folder',
      () => path.join(lines, 'x.json'),
      10,
      'a part of the path is not a folder',
      'check the path',
    ],
    [
      'a name too long',
      () => path.join(dir, `${'n'.repeat(300)}.json`),
      10,
      'the file name is too long',
      'use a shorter file name',
    ],
    [
      'a folder',
      () => {
        mkdirSync(path.join(dir, 'folder'), { recursive: true });
        return path.join(dir, 'folder');
      },
      2,
      'it is a folder',
      'give --learned a file name, e.g. --learned products.learned.json',
    ],
  ])('%s: one error, its exit code, nothing written', async (_, target, code, why, hint) => {
    const file = target();
    // The line-keyed catalogue warns when it is read: the refusal comes first, alone.
    const r = await learn(lines, file);
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: cannot write ${file}: ${why}\nhint: ${hint}\n`);
    expect(existsSync(path.join(dir, 'nodir'))).toBe(false);
  });
});

describe('a learned file that cannot be written after all (its folder gone meanwhile)', () => {
  it('is exit 10, naming the file given, never its temporary neighbour', async () => {
    const file = path.join(dir, 'gone', 'x.json');
    const err = (await writeLearned(file, '{}', true).catch((e: unknown) => e)) as CannotWriteError;
    expect(err).toBeInstanceOf(CannotWriteError);
    expect(err.exitCode).toBe(10);
    expect(err.message).toBe(`cannot write ${file}: its folder does not exist`);
  });
});

describe('--learn refuses the flags it would ignore', () => {
  it.each([
    ['--since', '30d'],
    ['--sources', 'us_cpsc'],
    ['--severity', 'high'],
    ['--grep', 'chair'],
    ['--country', 'US'],
  ])('%s: exit 2, nothing learned', async (flag, value) => {
    const out = path.join(dir, 'refused.learned.json');
    const r = await learn(keyed, out, [flag, value]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: --learn reads the archive's closed cases: ${flag} does not apply\nhint: example: recall-feed match --learn --catalog products.csv\n`,
    );
    expect(existsSync(out)).toBe(false);
  });
});
