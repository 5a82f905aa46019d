// --country matches whole countries, by ISO code or by name in English, French, German or Spanish, in feed and in the
// archive on both engines: DE is Germany, never "Bangladesh"; an unknown country is said on stderr.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';

type Rec = Record<string, unknown>;
/** The records a notice would hold, written by hand: each origin as agencies write it. */
const ORIGINS = ['Germany', 'Bangladesh', 'Deutschland', 'Allemagne', 'China, Germany', 'DE', 'Denmark', 'Sweden'];
/** Which of ORIGINS are Germany, decided by reading them. */
const GERMAN = new Set(['Germany', 'Deutschland', 'Allemagne', 'China, Germany', 'DE']);

describe('--country', () => {
  let sandbox: Sandbox;
  let ids: Map<string, number>;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    const added = sandbox.addRecords(
      ORIGINS.map((origin) => ({ data_source: 'us_cpsc', alert_title: `From ${origin}`, country_of_origin: origin })),
    ) as { id: number; country_of_origin: string }[];
    ids = new Map(added.map((r) => [r.country_of_origin, r.id]));
  });
  const german = () => [...GERMAN].map((o) => ids.get(o)).sort();
  const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(FIXED_START) });

  it.each(['DE', 'de', 'Germany', 'Deutschland', 'Allemagne', 'Alemania'])(
    'feed --country %s: the German recalls only',
    async (value) => {
      const r = await run(['feed', '--country', value, '-f', 'jsonl']);
      expect(r.code, r.stderr).toBe(0);
      expect((jsonLines(r.stdout) as Rec[]).map((x) => x.id as number).sort()).toEqual(german());
    },
  );

  it('an unknown country is said on stderr, and matches only its own words', async () => {
    const r = await run(['feed', '--country', 'Germani', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'Germani is no country this tool knows (an ISO code such as DE, or a name such as Germany)',
    );
  });

  describe.each(ENGINES)('query on $engine', ({ engine, available }) => {
    if (!available) {
      it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
      return;
    }
    it('DE and Allemagne find the same German recalls, never Bangladesh', async () => {
      const { db } = await testArchive(engine);
      expect((await run(['sync', '--db', db])).code).toBe(0);
      for (const value of ['DE', 'Allemagne']) {
        const r = await run(['query', '--db', db, '--country', value, '-f', 'jsonl']);
        expect(r.code, r.stderr).toBe(0);
        const got = (jsonLines(r.stdout) as Rec[]).map((x) => x.id as number).sort();
        expect(got).toEqual(german());
        expect(got).not.toContain(ids.get('Bangladesh'));
      }
    });
  });
});
