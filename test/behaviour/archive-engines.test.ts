// The same window synced into SQLite and PostgreSQL: every query, filter, search, stats and history prints the same bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { pgAdminUrl } from '../helpers/postgres.js';

describe.skipIf(!pgAdminUrl())('SQLite and PostgreSQL give the same answers', () => {
  let sandbox: Sandbox;
  let sqlite: TestArchive;
  let postgres: TestArchive;
  let updated: number[];

  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 900, seed: 61, clock: () => FIXED_START });
    // Awkward text: accents, ligatures, control codes, numbers in words, a null field.
    sandbox.addRecords([
      { alert_title: 'Crème BRÛLÉE Œuvre straße — Ørsted', product_model_numbers: ['XK-200/B', 'ZQ99'] },
      { alert_title: 'crème brûlée torch \u001b[31mRED\u001b[0m', product_brand: 'Flambé Co' },
    ]);
    [sqlite, postgres] = await Promise.all([testArchive('sqlite'), testArchive('postgres')]);
    for (const a of [sqlite, postgres]) expect((await runMainAgainst(sandbox, ['sync', '--db', a.db])).code).toBe(0);
    updated = sandbox.updateRecords(15).map((r) => r.id);
    for (const a of [sqlite, postgres]) expect((await runMainAgainst(sandbox, ['sync', '--db', a.db])).code).toBe(0);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /**
   * Runs the same command on both archives: it must succeed (the same failure on both would prove nothing), and stdout,
   * exit code and stderr (the archive's name aside) must match.
   */
  async function same(args: string[]): Promise<string> {
    const [a, b] = await Promise.all([sqlite, postgres].map((x) => runMain([...args, '--db', x.db])));
    expect(a!.code, `${args.join(' ')}: ${a!.stderr}`).toBe(0);
    expect(b!.code, args.join(' ')).toBe(a!.code);
    expect(b!.stdout, args.join(' ')).toBe(a!.stdout);
    expect(b!.stderr.replaceAll(postgres.name, 'ARCHIVE')).toBe(a!.stderr.replaceAll(sqlite.name, 'ARCHIVE'));
    return a!.stdout;
  }

  it.each<[string, string[]]>([
    ['all, jsonl', []],
    ['csv', ['-f', 'csv']],
    ['every filter', ['--severity', 'high,serious', '--risk', 'fire', '--status', 'updated,active']],
    ['text filters', ['--brand', 'a', '--category', 'e', '--country', 'DE', '--jurisdiction', 'FR,US']],
    ['grep with a limit', ['--grep', 'charg', '--limit', '7']],
    ['sources and window', ['--sources', 'uk_opss,us_cpsc', '--since', '2026-01-15', '--until', '2026-01-15T09:00']],
    ['sort and tie order', ['--sort', 'updated_at', '--order', 'asc']],
    ['created_in_db_at desc', ['--sort', 'created_in_db_at', '--limit', '50']],
  ])('query: %s', async (_, args) => {
    const out = await same(['query', '-f', 'jsonl', ...args]);
    expect(out.length).toBeGreaterThan(0);
  });

  it.each([
    'creme brulee',
    'CRÈME',
    'oeuvre',
    'œuvre',
    'strasse',
    'ørsted',
    'xk-200/b',
    'zq*',
    'listeri*',
    'fire AND NOT',
    '"brulee',
    'red 31m',
  ])('query --search %j', async (text) => {
    await same(['query', '-f', 'jsonl', '--search', text]);
  });

  it('query --search "- —", no word to search for: refused alike on both (exit 2)', async () => {
    const [a, b] = await Promise.all(
      [sqlite, postgres].map((x) => runMain(['query', '--search', '- —', '--db', x.db])),
    );
    expect([a!.code, b!.code]).toEqual([2, 2]);
    expect(a!.stderr).toMatch(/^error: --search has no word to search for\n/);
    expect(b!.stderr).toBe(a!.stderr);
  });

  it('finds accented words without accents on both', async () => {
    const out = await same(['query', '-f', 'jsonl', '--search', 'creme brulee']);
    expect(out.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('stats -f json and -f csv, with every field and a residual filter', async () => {
    const by = 'source,severity,risk,category,brand,country,jurisdiction,status,day,hour';
    await same(['stats', '--by', by, '-f', 'json']);
    await same(['stats', '--by', by, '-f', 'json', '--grep', 'e', '--since', '2026-01-15']);
    await same(['stats', '--by', 'severity,risk', '-f', 'csv', '--search', 'fire']);
  });

  it('show and show --history, for person and machine', async () => {
    for (const id of updated.slice(0, 5)) {
      const history = await same(['show', String(id), '--history', '-f', 'jsonl']);
      expect(history.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(2);
      await same(['show', String(id), '-f', 'json']);
    }
  });
});
