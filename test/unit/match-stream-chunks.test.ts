// match's streaming job: the recalls matched a chunk at a time, and the rows spooled past their bound to disk, give the
// same rows in the same order (per recall, by level, reason and line) and the same counts as one chunk held whole.
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { streamMatchRows, type MatchCounts } from '../../src/jobs/match/stream-match.js';
import { matchRow } from '../../src/jobs/matching/match-rows.js';
import { MatchSpool } from '../../src/jobs/match/match-spool.js';
import { readCatalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import type { RecordOutput } from '../../src/runtime/files/record-output.js';
import type { StatusReporter } from '../../src/runtime/terminal/status.js';
import { generatedCatalogue, generatedRecalls } from '../helpers/match-generated.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-match-chunks-');

/** An output that keeps the rows its renderer is given, in order. */
function collecting() {
  const rows: Record<string, unknown>[] = [];
  const output = {
    format: 'jsonl',
    toFile: false,
    write: async (fill: (sink: unknown) => Promise<unknown>) =>
      fill({
        renderer: () => ({
          write: async (batch: readonly Record<string, unknown>[]) => {
            rows.push(...batch);
          },
          end: async () => {},
          count: 0,
        }),
      }),
  } as unknown as RecordOutput;
  return { rows, output };
}

const status = {
  start: async () => {},
  progress: () => {},
  warn: () => {},
  note: () => {},
  stop: () => {},
  around: <T>(fn: () => Promise<T>) => fn(),
} as unknown as StatusReporter;

async function run(file: string, recalls: Record<string, unknown>[], chunk: number) {
  const { rows, output } = collecting();
  const counts: MatchCounts = { fetched: 0, checked: 0, match: 0, possible: 0, excluded: 0 };
  const batches = (async function* () {
    for (let i = 0; i < recalls.length; i += 10) yield { records: recalls.slice(i, i + 10) };
  })();
  const plan = { catalog: file, map: {}, explain: true, formulaGuard: true, bom: false };
  await streamMatchRows(
    plan,
    batches,
    (r) => r.id !== 1003,
    undefined,
    output,
    counts,
    status,
    AbortSignal.timeout(60_000),
    chunk,
  );
  return { rows, counts };
}

describe('match streaming job', () => {
  it('chunks of 7 recalls give the rows, order and counts of the whole catalogue in memory', async () => {
    const recalls = generatedRecalls(60, 5);
    const file = path.join(dir, 'catalogue.csv');
    writeFileSync(file, generatedCatalogue(recalls, 1500, 6, 5));
    // Expected: the in-memory matcher, recall by recall, as `match -f table` indexes it.
    const catalogue = await readCatalogue(file);
    const index = new CatalogueIndex(catalogue);
    const kept = recalls.filter((r) => r.id !== 1003);
    const expected = kept.flatMap((r) => index.match(r, { explain: true }).map((m) => matchRow(m, r, true)));
    const whole = await run(file, recalls, 1_000);
    const chunked = await run(file, recalls, 7);
    expect(whole.rows.length).toBeGreaterThan(100);
    expect(whole.rows).toEqual(expected);
    expect(chunked.rows).toEqual(expected);
    expect(chunked.counts).toEqual(whole.counts);
    expect(whole.counts.fetched).toBe(60);
    expect(whole.counts.checked).toBe(59);
    expect(whole.counts.match + whole.counts.possible + whole.counts.excluded).toBe(expected.length);
  });

  it('the spool hands back rows held on disk in order, without a prototype, and removes its file', async () => {
    const spools = () => readdirSync(os.tmpdir()).filter((f) => f.startsWith('recall-feed-match-'));
    const before = spools();
    const spool = new MatchSpool(3);
    const match = (level: 'match' | 'possible', reason: 'barcode' | 'brand+name') => ({ level, reason }) as never;
    const row = (n: number) => Object.assign(Object.create(null), { n, ['__proto__']: `p${n}` });
    await spool.add(1, match('possible', 'brand+name'), row(1));
    await spool.add(0, match('possible', 'brand+name'), row(2));
    await spool.add(1, match('match', 'barcode'), row(3));
    await spool.add(0, match('match', 'barcode'), row(4));
    await spool.add(1, match('match', 'barcode'), row(5));
    const out: Record<string, unknown>[] = [];
    expect(spools().length).toBe(before.length + 1);
    for await (const batch of spool.rows()) out.push(...batch);
    expect(spools()).toEqual(before);
    expect(out.map((r) => r.n)).toEqual([4, 2, 3, 5, 1]);
    expect(Object.getPrototypeOf(out[0])).toBe(null);
    expect(Object.keys(out[0] as object)).toEqual(['n', '__proto__']);
  });
});
