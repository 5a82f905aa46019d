// Record filters on feed (export, --state, --watch) against expectations computed here from the unfiltered records.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
let sandbox: Sandbox;
let all: Rec[];

/** The test's own folding: NFD, marks dropped, lower case. */
const f = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const anyOf = (value: unknown, wanted: string[]) =>
  (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && wanted.map(f).includes(f(v)));
const contains = (value: unknown, text: string) => typeof value === 'string' && f(value).includes(f(text));
const texts = (v: unknown): string[] =>
  typeof v === 'string'
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(texts)
      : v && typeof v === 'object'
        ? Object.values(v).flatMap(texts)
        : [];

const CASES: [string, string[], (r: Rec) => boolean][] = [
  ['severity', ['--severity', 'SERIOUS'], (r) => anyOf(r.risk_severity, ['serious'])],
  ['risk (any element)', ['--risk', 'fire,brûlure'], (r) => anyOf(r.risk_types, ['fire', 'brûlure'])],
  ['status', ['--status', 'updated'], (r) => anyOf(r.alert_status, ['updated'])],
  ['jurisdiction', ['--jurisdiction', 'fr,ca'], (r) => anyOf(r.geo_jurisdictions, ['FR', 'CA'])],
  ['category (accents)', ['--category', 'electriques'], (r) => contains(r.product_category, 'électriques')],
  ['brand', ['--brand', 'cote'], (r) => contains(r.product_brand, 'Côté')],
  // Whole countries: the code CN is China whichever language names it (the sandbox writes "China" and "Chine").
  [
    'country (a code)',
    ['--country', 'cn'],
    (r) => typeof r.country_of_origin === 'string' && ['china', 'chine'].includes(r.country_of_origin.toLowerCase()),
  ],
  ['grep (nested text)', ['--grep', 'carrefour'], (r) => texts(r).some((t) => contains(t, 'carrefour'))],
  [
    'two lists and a text',
    ['--severity', 'serious,high', '--jurisdiction', 'FR', '--category', 'jouet'],
    (r) =>
      anyOf(r.risk_severity, ['serious', 'high']) &&
      anyOf(r.geo_jurisdictions, ['fr']) &&
      contains(r.product_category, 'jouet'),
  ],
];

beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 21, recordCount: 600, clock: () => FIXED_START });
  all = jsonLines((await runMainAgainst(sandbox, ['feed', '-f', 'jsonl'])).stdout);
});
afterAll(() => sandbox.close());

describe('feed filters', () => {
  it.each(CASES)('%s', async (_name, flags, keep) => {
    const expected = all.filter(keep).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', ...flags]);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(expected);
    // The requests sent are the unfiltered ones: every page, no filter parameter.
    const queries = sandbox.requests().map((q) => Object.keys(q.query).sort().join(','));
    expect(queries).toEqual(['limit', 'cursor,limit']);
  });

  it('--max counts records written; -v says how many matched of how many were fetched', async () => {
    const serious = all.filter((r) => anyOf(r.risk_severity, ['serious']));
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--severity', 'serious', '--max', '5', '-v']);
    expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(serious.slice(0, 5).map((x) => x.id));
    const full = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--severity', 'serious', '-v']);
    expect(full.stderr).toContain(`${serious.length} matching of ${all.length} fetched`);
  });

  it('--state remembers only what was written', async () => {
    // The real clock: the state forgets what was published more than 25 hours before now.
    const live = await sandboxFor({ seed: 23, recordCount: 300 });
    const records = jsonLines((await runMainAgainst(live, ['feed', '-f', 'jsonl'])).stdout);
    const state = path.join(tempDir(), 'seen.json');
    const r = await runMainAgainst(live, ['feed', '-f', 'jsonl', '--state', state, '--brand', 'snuggly', '-v']);
    await live.close();
    expect(r.code).toBe(0);
    const expected = records.filter((x) => contains(x.product_brand, 'snuggly')).map((x) => String(x.id));
    expect(expected.length).toBeGreaterThan(0);
    expect(
      jsonLines(r.stdout)
        .map((x) => String(x.id))
        .sort(),
    ).toEqual([...expected].sort());
    expect(Object.keys(JSON.parse(readFileSync(state, 'utf8')).seen).sort()).toEqual([...expected].sort());
    expect(r.stderr).toContain(`${expected.length} new matching recalls (of ${records.length} fetched)`);
  });

  it('--watch writes only the matching new recalls', async () => {
    const live = await sandboxFor({ seed: 22, recordCount: 50 });
    try {
      // The injected clock stands in for the poll interval: the arrivals come after the first poll, and
      // the run is interrupted after the poll that follows the one that found them.
      let added: { id: number }[] = [];
      const stop = new AbortController();
      let sleeps = 0;
      const clock = fakeClock(Date.now(), () => {
        sleeps++;
        if (sleeps === 1)
          added = live.addRecords([
            { risk_severity: 'serious' },
            { risk_severity: 'low' },
            { risk_severity: 'Serious' },
          ]);
        if (sleeps === 3) stop.abort(new InterruptedError('SIGINT'));
      });
      const r = await runMainAgainst(
        live,
        ['feed', '--watch', '--interval', '1', '--skip-existing', '-f', 'jsonl', '--severity', 'serious'],
        { clock, signal: stop.signal },
      );
      expect(r.code).toBe(130);
      expect(live.requests().length).toBeGreaterThanOrEqual(3);
      const wanted = [added[0]!.id, added[2]!.id];
      expect(
        jsonLines(r.stdout)
          .map((x) => x.id)
          .sort(),
      ).toEqual([...wanted].sort());
    } finally {
      await live.close();
    }
  });
});
