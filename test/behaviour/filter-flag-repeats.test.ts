// A filter flag given twice: a list flag's values add up (OR), a one-value flag is refused rather than losing its
// first value; a value that folds to nothing, and a --search with no word, are usage errors. Expectations are
// computed from the sandbox's own records.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectedFeed } from '../helpers/expected.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('filter flags given twice, and values that name nothing', () => {
  let sandbox: Sandbox;
  let window: SpecRecall[];
  let db: string;
  beforeAll(async () => {
    db = path.join(tempDir('rf-repeats-', { scope: 'file' }), 'archive.db');
    sandbox = await sandboxFor({ recordCount: 300, seed: 7, clock: () => FIXED_START });
    window = expectedFeed(sandbox, { now: FIXED_START });
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const feed = (args: string[]) =>
    runMainAgainst(sandbox, ['feed', '-f', 'jsonl', ...args], { clock: fakeClock(FIXED_START) });
  const query = (args: string[]) =>
    runMain(['query', '--db', db, '-f', 'jsonl', ...args], { clock: fakeClock(FIXED_START) });
  const ids = (stdout: string) =>
    jsonLines(stdout)
      .map((r) => r.id as number)
      .sort((a, b) => a - b);
  const idsWhere = (keep: (r: SpecRecall) => boolean) =>
    window
      .filter(keep)
      .map((r) => r.id)
      .sort((a, b) => a - b);

  describe('a list flag repeated adds its values', () => {
    const severe = () => idsWhere((r) => ['serious', 'high'].includes(String(r.risk_severity).toLowerCase()));

    it.each([
      ['feed', feed],
      ['query', query],
    ])('%s --severity serious --severity high keeps both', async (_name, run) => {
      const r = await run(['--severity', 'serious', '--severity', 'high']);
      expect(r.code, r.stderr).toBe(0);
      const got = ids(r.stdout);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(severe());
      expect(got).toEqual(ids((await run(['--severity', 'serious,high'])).stdout));
    });

    it('query --sources a --sources b lists both sources', async () => {
      const r = await query(['--sources', 'us_cpsc', '--sources', 'uk_opss']);
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual(idsWhere((x) => x.data_source === 'us_cpsc' || x.data_source === 'uk_opss'));
    });

    it('feed --sources a --sources b asks for both sources', async () => {
      const r = await feed(['--sources', 'us_cpsc', '--sources', 'uk_opss']);
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual(idsWhere((x) => x.data_source === 'us_cpsc' || x.data_source === 'uk_opss'));
    });

    it('sync --sources a --sources b stores both sources', async () => {
      const both = path.join(tempDir('rf-repeats-sync-'), 'both.db');
      const r = await runMainAgainst(sandbox, ['sync', '--db', both, '--sources', 'us_cpsc', '--sources', 'uk_opss'], {
        clock: fakeClock(FIXED_START),
      });
      expect(r.code, r.stderr).toBe(0);
      const stored = await runMain(['query', '--db', both, '-f', 'jsonl']);
      expect(ids(stored.stdout)).toEqual(idsWhere((x) => x.data_source === 'us_cpsc' || x.data_source === 'uk_opss'));
    });

    it('stats --by severity --by source counts by both', async () => {
      const r = await runMain(['stats', '--db', db, '--by', 'severity', '--by', 'source', '-f', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['severity', 'source']);
    });
  });

  describe('a one-value flag given twice is refused', () => {
    it.each([
      ['query', ['--since', '7d', '--since', '30d'], '--since'],
      ['query', ['--until', '1d', '--until', '2d'], '--until'],
      ['query', ['--search', 'heater', '--search', 'toy'], '--search'],
      ['query', ['--brand', 'acme', '--brand', 'kidzone'], '--brand'],
      ['feed', ['--country', 'DE', '--country', 'FR'], '--country'],
      ['feed', ['--category', 'toys', '--category', 'jouets'], '--category'],
      ['feed', ['--grep', 'fire', '--grep', 'burn'], '--grep'],
    ])('%s %j: exit 2, one error line', async (command, args, flag) => {
      const r = command === 'feed' ? await feed(args) : await query(args);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: ${flag} was given twice\nhint: ${flag} takes one value: give it once\n`);
      expect(r.code).toBe(2);
    });

    it.each([
      ['digest', ['--since', '7d', '--since', '30d'], '--since'],
      ['digest', ['--until', '1d', '--until', '2d'], '--until'],
      ['report', ['--since', '7d', '--since', '30d'], '--since'],
      ['report', ['--until', '1d', '--until', '2d'], '--until'],
      ['match', ['--catalog', 'x.csv', '--archive', '--since', '7d', '--since', '30d'], '--since'],
    ])('%s %j: exit 2, one error line, before the archive is read', async (command, args, flag) => {
      const r = await runMain([command, '--db', db, ...args], { clock: fakeClock(FIXED_START) });
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: ${flag} was given twice\nhint: ${flag} takes one value: give it once\n`);
      expect(r.code).toBe(2);
    });

    it('the same value twice is that value', async () => {
      const once = await query(['--since', '7d', '--search', 'heater']);
      expect(jsonLines(once.stdout).length).toBeGreaterThan(0);
      const twice = await query(['--since', '7d', '--since', '7d', '--search', 'heater', '--search', 'heater']);
      expect(twice.code, twice.stderr).toBe(0);
      expect(twice.stdout).toBe(once.stdout);
    });
  });

  describe('a value that folds to nothing is refused as a blank one is', () => {
    it.each([
      ['feed', '--brand', '\u0301', 'needs some text', 'acme'],
      ['query', '--brand', '\u0301', 'needs some text', 'acme'],
      ['query', '--country', ' \u0308 ', 'needs some text', 'DE'],
      ['feed', '--severity', '\u0301', 'needs at least one value', 'serious,high'],
      ['query', '--severity', '\u0301,\u0300', 'needs at least one value', 'serious,high'],
    ])('%s %s <combining marks>: exit 2', async (command, flag, value, says, example) => {
      const r = command === 'feed' ? await feed([flag, value]) : await query([flag, value]);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: ${flag} ${says}\nhint: example: ${flag} ${example}\n`);
      expect(r.code).toBe(2);
    });
  });

  describe('--search with no word to search for', () => {
    it.each(['...', '*', '--', '" -'])('query and stats --search=%s: exit 2', async (words) => {
      for (const run of [query, (a: string[]) => runMain(['stats', '--db', db, ...a])]) {
        const r = await run([`--search=${words}`]);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(
          'error: --search has no word to search for\nhint: a word is letters or digits: e.g. --search "creme brulee"\n',
        );
        expect(r.code).toBe(2);
      }
    });
  });
});
