// --country and stats --by country read a country however it is written: current ISO codes only (France is FR, never
// the withdrawn FX), whole names before their parts ("Bosnia and Herzegovina" is one country), the common short forms.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Origins as agencies write them, and the country each names, decided by reading them. */
const ORIGINS: [string, string][] = [
  ['France', 'FR'],
  ['FR', 'FR'],
  ['Frankreich', 'FR'],
  ['United Kingdom', 'GB'],
  ['UK', 'GB'],
  ['Russland', 'RU'],
  ['Bosnia and Herzegovina', 'BA'],
  ['Bosnia & Herzegovina', 'BA'],
  ['Trinidad and Tobago', 'TT'],
  ['Saint Kitts and Nevis', 'KN'],
  ['Hong Kong', 'HK'],
  ["Côte d'Ivoire", 'CI'],
  ['The Netherlands', 'NL'],
  ['PR China', 'CN'],
];

describe('country names', () => {
  let sandbox: Sandbox;
  const ids = new Map<string, number>();
  const db = () => path.join(folder, 'archive.db');
  let folder: string;
  beforeAll(async () => {
    folder = tempDir('rf-countries-', { scope: 'file' });
    sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    const added = sandbox.addRecords(
      ORIGINS.map(([origin]) => ({ data_source: 'us_cpsc', alert_title: `From ${origin}`, country_of_origin: origin })),
    ) as { id: number; country_of_origin: string }[];
    for (const r of added) ids.set(r.country_of_origin, r.id);
    expect((await runMainAgainst(sandbox, ['sync', '--db', db()], { clock: fakeClock(FIXED_START) })).code).toBe(0);
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(FIXED_START) });
  const idsOf = (code: string) =>
    ORIGINS.filter(([, c]) => c === code)
      .map(([o]) => ids.get(o))
      .sort();

  it.each([
    ['FR', 'FR'],
    ['France', 'FR'],
    ['GB', 'GB'],
    ['UK', 'GB'],
    ['RU', 'RU'],
    ['BA', 'BA'],
    ['TT', 'TT'],
    ['KN', 'KN'],
    ['HK', 'HK'],
    ['CI', 'CI'],
    ['NL', 'NL'],
    ['CN', 'CN'],
  ])('feed and query --country %s: the recalls from %s, with no warning', async (value, code) => {
    for (const args of [['feed'], ['query', '--db', db()]]) {
      const r = await run([...args, '--country', value, '-f', 'jsonl']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(
        jsonLines(r.stdout)
          .map((x) => x.id as number)
          .sort(),
      ).toEqual(idsOf(code));
    }
  });

  it('stats --by country: one group per country, however written', async () => {
    const r = await runMain(['stats', '--db', db(), '--by', 'country', '-f', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const groups = (JSON.parse(r.stdout) as { country: { value: string; count: number }[] }).country;
    // Ties in count: the most common spelling, the first by UTF-8 bytes.
    expect(groups).toEqual([
      { value: 'FR', count: 3 },
      { value: 'Bosnia & Herzegovina', count: 2 },
      { value: 'UK', count: 2 },
      { value: "Côte d'Ivoire", count: 1 },
      { value: 'Hong Kong', count: 1 },
      { value: 'PR China', count: 1 },
      { value: 'Russland', count: 1 },
      { value: 'Saint Kitts and Nevis', count: 1 },
      { value: 'The Netherlands', count: 1 },
      { value: 'Trinidad and Tobago', count: 1 },
    ]);
  });
});
