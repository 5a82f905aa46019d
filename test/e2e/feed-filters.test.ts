// Record filters on feed (export, --state, --watch) against expectations computed here from the unfiltered records.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { FIXED_START, jsonLines, runAgainst, sandboxFor, tempDir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

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
  ['country', ['--country', 'CHIN'], (r) => contains(r.country_of_origin, 'chin')],
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
  all = jsonLines((await runAgainst(sandbox, ['feed', '-f', 'jsonl'])).stdout);
});
afterAll(() => sandbox.close());

describe('feed filters', () => {
  it.each(CASES)('%s', async (_name, flags, keep) => {
    const expected = all.filter(keep).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    sandbox.clearRequests();
    const r = await runAgainst(sandbox, ['feed', '-f', 'jsonl', ...flags]);
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(expected);
    // The requests sent are the unfiltered ones: every page, no filter parameter.
    const queries = sandbox.requests().map((q) => Object.keys(q.query).sort().join(','));
    expect(queries).toEqual(['limit', 'cursor,limit']);
  });

  it('--max counts records written; -v says how many matched of how many were fetched', async () => {
    const serious = all.filter((r) => anyOf(r.risk_severity, ['serious']));
    const r = await runAgainst(sandbox, ['feed', '-f', 'jsonl', '--severity', 'serious', '--max', '5', '-v']);
    expect(jsonLines(r.stdout).map((x) => x.id)).toEqual(serious.slice(0, 5).map((x) => x.id));
    const full = await runAgainst(sandbox, ['feed', '-f', 'jsonl', '--severity', 'serious', '-v']);
    expect(full.stderr).toContain(`${serious.length} matching of ${all.length} fetched`);
  });

  it('--state remembers only what was written', async () => {
    // The real clock: the state forgets what was published more than 25 hours before now.
    const live = await sandboxFor({ seed: 23, recordCount: 300 });
    const records = jsonLines((await runAgainst(live, ['feed', '-f', 'jsonl'])).stdout);
    const state = path.join(tempDir(), 'seen.json');
    const r = await runAgainst(live, ['feed', '-f', 'jsonl', '--state', state, '--brand', 'snuggly', '-v']);
    await live.close();
    expect(r.exitCode).toBe(0);
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
      const child = runAgainst(
        live,
        ['feed', '--watch', '--interval', '1', '--skip-existing', '-f', 'jsonl', '--severity', 'serious'],
        {
          timeout: 60_000,
        },
      );
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      await until('the first poll', () => live.requests().length >= 1);
      const added = live.addRecords([
        { risk_severity: 'serious' },
        { risk_severity: 'low' },
        { risk_severity: 'Serious' },
      ]);
      const wanted = [added[0]!.id, added[2]!.id];
      await until('the serious ones', () => wanted.every((id) => out.includes(`"id":${id},`)));
      const polls = live.requests().length;
      await until('one more poll', () => live.requests().length > polls + 1);
      child.kill('SIGINT');
      await child;
      expect(
        jsonLines(out)
          .map((x) => x.id)
          .sort(),
      ).toEqual([...wanted].sort());
    } finally {
      await live.close();
    }
  });
});
