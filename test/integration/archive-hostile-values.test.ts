// Recalls no real feed should send but JSON allows, synced over HTTP into both engines: a 12,000-letter word, a megabyte
// of distinct words, NUL characters in filter and text fields. Every sync succeeds; search, filters, stats and the BI
// view give the same answers on SQLite and PostgreSQL; and a mistyped --db URL is refused before any request.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive, type TestArchive } from '../helpers/archive-engines.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { ENGINES, pgAdminUrl } from '../helpers/postgres.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** One unbroken word far past PostgreSQL's 2,046-byte lexeme limit, accents included (multi-byte in UTF-8). */
const LONG_WORD = `${'abcdéfghij'.repeat(1200)}`;
/** A megabyte and more of distinct words: past a tsvector's 1 MB. */
const MANY_WORDS = Array.from({ length: 120_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
const NUL_BRAND = 'Nul\u0000Brand';

let sandbox: Sandbox;
let long: SpecRecall;
let many: SpecRecall;
let nul: SpecRecall;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 30, seed: 24 });
  [long, many, nul] = sandbox.addRecords([
    { hazard_description: `Overheating ${LONG_WORD} reported` },
    { product_description: MANY_WORDS, alert_title: 'Many words recall' },
    {
      product_brand: NUL_BRAND,
      product_model_numbers: ['NB-4411'],
      alert_title: 'Title\u0000with a NUL',
      product_category: 'Toys\u0000',
      risk_types: ['fire\u0000'],
      hazard_description: 'nul\u0000hazard',
    },
  ]) as [SpecRecall, SpecRecall, SpecRecall];
});
afterAll(async () => {
  await sandbox?.close();
});

/** Per engine, the outputs to compare across engines. */
const outputs = new Map<string, Record<string, string>>();

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let archive: TestArchive;
  const seen: Record<string, string> = {};
  beforeAll(async () => {
    archive = await testArchive(engine);
    outputs.set(engine, seen);
  });

  const ids = (stdout: string) => jsonLines(stdout).map((r) => r.id);

  it('syncs a 12,000-letter word, a megabyte of words and NULs, twice (a later sync is not stopped either)', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await runMainAgainst(sandbox, ['sync', '--db', archive.db]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect((await archive.held()).count).toBe(33);
  });

  it('query --search finds the long word whole, by a prefix, and a word of the megabyte record', async () => {
    const search = async (words: string) => {
      const r = await runMainAgainst(sandbox, ['query', '--db', archive.db, '--search', words, '-f', 'jsonl']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      seen[`search ${words.slice(0, 20)}`] = r.stdout;
      return ids(r.stdout);
    };
    expect(await search(LONG_WORD)).toEqual([long.id]);
    expect(await search(`overheating ${LONG_WORD.toUpperCase()}`)).toEqual([long.id]);
    expect(await search(`${LONG_WORD.slice(0, 3000)}*`)).toEqual([long.id]);
    expect(await search('abcdefghij*')).toEqual([long.id]);
    expect(await search(`${LONG_WORD}x`)).toEqual([]);
    expect(await search('w1x')).toEqual([many.id]);
  });

  it('NULs: the record comes back exactly, filters and search find it, stats and the view count it', async () => {
    const show = await runMainAgainst(sandbox, ['show', String(nul.id), '--db', archive.db, '-f', 'jsonl']);
    expect(show.code).toBe(0);
    expect(show.stdout).toBe(`${JSON.stringify(nul)}\n`);
    const brand = await runMainAgainst(sandbox, ['query', '--db', archive.db, '--brand', 'brand', '-f', 'jsonl']);
    expect(brand.code).toBe(0);
    expect(ids(brand.stdout)).toContain(nul.id);
    const hazard = await runMainAgainst(sandbox, [
      'query',
      '--db',
      archive.db,
      '--search',
      'nul hazard',
      '-f',
      'jsonl',
    ]);
    expect(ids(hazard.stdout)).toEqual([nul.id]);
    seen.hazard = hazard.stdout;
    const stats = await runMainAgainst(sandbox, ['stats', '--db', archive.db, '--by', 'brand,risk', '-f', 'json']);
    expect(stats.stderr).toBe('');
    expect(stats.code).toBe(0);
    const counted = JSON.parse(stats.stdout) as Record<'brand' | 'risk', { value: unknown; count: number }[]>;
    expect(counted.brand.reduce((n, v) => n + v.count, 0)).toBe(33);
    // PostgreSQL's jsonb has no NUL: stats show U+FFFD in its place on both engines, the same bytes (docs/archive.md).
    expect(counted.brand).toContainEqual({ value: 'Nul\uFFFDBrand', count: 1 });
    if (engine === 'postgres') {
      const view = await archive.rows<{ n: string; brand: string }>(
        `SELECT count(*) OVER () AS n, product_brand AS brand FROM recalls_view WHERE id = ${nul.id}`,
      );
      expect(view).toEqual([{ n: '1', brand: 'Nul\uFFFDBrand' }]);
      const all = await archive.rows<{ n: string }>('SELECT count(*) AS n FROM recalls_view');
      expect(all).toEqual([{ n: '33' }]);
    }
  });
});

describe.each(ENGINES)('$engine: match --open-cases on a recall with NULs', ({ engine, available }) => {
  it.skipIf(!available)('opens its case; cases lists it', async () => {
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const catalogue = path.join(tempDir('rf-cat-'), 'c.csv');
    writeFileSync(catalogue, 'sku,ean,brand,model,name\nS-1,,Nul Brand,NB-4411,\n');
    const match = await runMainAgainst(sandbox, [
      'match',
      '--archive',
      '--open-cases',
      '--catalog',
      catalogue,
      '--db',
      archive.db,
      '-f',
      'jsonl',
    ]);
    expect(match.stderr).not.toMatch(/error/);
    expect(jsonLines(match.stdout).map((r) => r.recall_id)).toEqual([nul.id]);
    const cases = await runMainAgainst(sandbox, ['cases', '--db', archive.db, '-f', 'jsonl']);
    expect(cases.code).toBe(0);
    expect(jsonLines(cases.stdout).map((c) => c.recall_id)).toEqual([nul.id]);
  });
});

describe('both engines', () => {
  it.skipIf(!pgAdminUrl())('answer the same', () => {
    expect(outputs.get('postgres')).toEqual(outputs.get('sqlite'));
  });
});

describe.skipIf(!pgAdminUrl())('a mistyped --db URL', () => {
  it('is refused (exit 2, the password masked, a hint) before any request, and no file is made', async () => {
    for (const bad of ['pg://ana:s3cret@db.internal/recalls', 'postgres:/ana:s3cret@db.internal/recalls']) {
      const before = sandbox.requests().length;
      const r = await runMainAgainst(sandbox, ['-v', 'sync', '--db', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toContain('s3cret');
      expect(r.stderr).toContain('ana:****@db.internal');
      expect(r.stderr).toMatch(/looks like a URL, but only postgres:\/\/ URLs name a database/);
      expect(r.stderr).toMatch(/hint: a PostgreSQL archive is postgres:\/\//);
      expect(sandbox.requests().length).toBe(before);
      expect(existsSync('pg:')).toBe(false);
      expect(existsSync('postgres:')).toBe(false);
    }
  });

  it('with a pasted leading space and line break still names the PostgreSQL archive', async () => {
    const archive = await testArchive('postgres');
    const r = await runMainAgainst(sandbox, ['sync', '--db', ` ${archive.db}\n`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((await archive.held()).count).toBe(33);
  });
});
