// match's streaming job: the recalls matched a chunk at a time, and the rows spooled past their bound to disk, give the
// same rows in the same order (per recall, by level, reason and line) and the same counts as one chunk held whole.
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { streamMatchRows, type MatchCounts } from '../../src/jobs/match/stream-match.js';
import { matchRow } from '../../src/jobs/matching/match-rows.js';
import { MatchSpool } from '../../src/jobs/match/match-spool.js';
import { LEVEL_RANK, type MatchLevel, type MatchReason, RANK } from '../../src/match/match-levels.js';
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
    { chunk },
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

  it('the spool keeps rows of any size and script in order, whether they waited in memory or on disk', async () => {
    const spools = () => readdirSync(os.tmpdir()).filter((f) => f.startsWith('recall-feed-match-'));
    const before = spools();
    const levels: MatchLevel[] = ['match', 'possible', 'excluded'];
    const reasons: MatchReason[] = ['barcode', 'brand+name', 'model'];
    // Names of 1 to 480 characters, some in scripts UTF-8 writes in 2 to 4 bytes: many rows alone outgrow 200 bytes.
    const names = ['a', 'é', '雪', '🍓', 'Kiełbasa'];
    const input = Array.from({ length: 120 }, (_, n) => ({
      recall: (n * 7) % 5,
      level: levels[n % 3] as MatchLevel,
      reason: reasons[(n >> 1) % 3] as MatchReason,
      row: { n, name: (names[n % names.length] as string).repeat(1 + ((n * 37) % 60)) },
    }));
    const expected = [...input]
      .sort(
        (a, b) =>
          a.recall - b.recall ||
          LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
          RANK[a.reason] - RANK[b.reason] ||
          a.row.n - b.row.n,
      )
      .map((x) => x.row);
    const run = async (spool: MatchSpool) => {
      for (const x of input)
        await spool.add(
          x.recall,
          { level: x.level, reason: x.reason } as never,
          Object.assign(Object.create(null), x.row),
        );
      const out: Record<string, unknown>[] = [];
      for await (const batch of spool.rows()) out.push(...batch);
      return out;
    };
    // Spilled every 4 rows or 200 bytes (a bigger row written alone), then all held in memory.
    expect(await run(new MatchSpool(4, 200))).toEqual(expected);
    expect(spools()).toEqual(before);
    expect(await run(new MatchSpool())).toEqual(expected);
    expect(spools()).toEqual(before);
  });
});
