// `match` on the held-out half of the second and third corpora (FDA, FSIS, Health Canada notices it was never tuned on): floors.
import { describe, expect, it } from 'vitest';
import { intoWindow } from '../fixtures/real-notices/quality.mjs';
import {
  CORPORA,
  corpusFiles,
  formatHeldOut,
  heldOutTable,
  loadRecalls,
  loadSplit,
  loadTruth,
  servable,
} from '../fixtures/real-notices-2/quality.mjs';
import { runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';

/**
 * The held-out figures bench/match-quality.mjs prints today (rows found / affected rows; right pairs / pairs), over
 * the whole holdout part of each corpus. Raise them when the matcher improves; never lower them to make a change pass,
 * and never tune on the holdout part (split.csv is fixed by a hash of each id).
 *
 * The second corpus's `match` precision was lowered once, on purpose and in the open (issue 34, 2026-11-28): a brand
 * written in the notice's title or product name, with the row's pack size, raised `match` row recall from 52/87 to
 * 75/87 for two more wrong pairs (53/54 to 80/83). Both sides' intervals overlap; bench/README.md gives the figures.
 *
 * The second corpus's `match`+`possible` precision was lowered once more (2026-11-29, 92/97 to 92/98), for safety:
 * the guards of scope-guards.ts leave a notice cut at a store's limit unread, and a pair that was `excluded` on it is
 * now a `possible` to verify (its `excluded` 4/4 to 3/3). Proving less is the price of never excluding on a guess.
 *
 * The third corpus's `match` and `match`+`possible` precision were lowered once (2026-11-29, 42/48 to 42/49 and 45/52
 * to 45/53), for safety: two reviews found 60 notices whose words leave a lot or date list open (`und jünger`, `and all
 * later lots`, `et suivantes`, `1001+`, `24XX`, `1234A/B/C`, `15.-20.06.2025`, `approximately`, `and others`, ...) and
 * that excluded a row they cover; scope-guards.ts now keeps such a field unread. One held-out FSIS pair that was
 * rightly `excluded` is now a `match` to verify (its `excluded` 13/13 to 12/12). Which words did it was not looked up.
 *
 * `matchRightProduct`: the `match` pairs whose notice concerns the row's product, whatever its lot or date (the
 * others' gap to `matchPrecision` is rows the notice does not cover that the reader could not prove out: left to
 * verify, never excluded).
 *
 * `excluded` is held to no wrong pair at all on either corpus: a wrong one puts a recalled product back on sale.
 */
const FLOORS = {
  'real-notices-2': {
    matchPrecision: 82 / 85,
    matchRowRecall: 77 / 87,
    matchOrPossibleRowRecall: 85 / 87,
    matchOrPossiblePrecision: 92 / 98,
    matchRightProduct: 85 / 85,
  },
  'real-notices-3': {
    matchPrecision: 42 / 49,
    matchRowRecall: 36 / 42,
    matchOrPossibleRowRecall: 39 / 42,
    matchOrPossiblePrecision: 45 / 53,
    matchRightProduct: 47 / 48,
  },
} as const;

describe.each(Object.keys(FLOORS) as (keyof typeof FLOORS)[])('match on %s, held-out part', (name) => {
  it('keeps today’s held-out precision and row recall, and excludes no row the truth keeps in scope', async () => {
    const floor = FLOORS[name];
    const dir = CORPORA[name];
    const all = loadRecalls(dir);
    const split = loadSplit(dir);
    const truth = loadTruth(dir);
    const served = all.filter((r) => split.get(r.id) === 'holdout');
    const sandbox = await sandboxFor({ recordCount: 0 });
    sandbox.addRecords(intoWindow(servable(served), Date.now()));
    // On a terminal, where the last line (the counts) is said.
    const r = await runMainAgainst(sandbox, ['match', '--catalog', corpusFiles(dir).catalogue, '-f', 'jsonl'], {
      stderrIsTTY: true,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`recalls: ${served.length}`);
    const lines = heldOutTable(all, truth, split, {
      tune: [],
      holdout: jsonLines(r.stdout) as Record<string, unknown>[],
    });
    const report = formatHeldOut(lines);
    if (process.env.PRINT_HELD_OUT) console.log(report);
    const line = (level: string) => lines.find((l) => l.part === 'holdout' && l.agency === 'all' && l.name === level);
    const m = line('match');
    const mp = line('match+possible');
    const excluded = line('excluded');
    expect(m?.precision ?? 0, report).toBeGreaterThanOrEqual(floor.matchPrecision);
    expect(m?.rowRecall ?? 0, report).toBeGreaterThanOrEqual(floor.matchRowRecall);
    expect(mp?.rowRecall ?? 0, report).toBeGreaterThanOrEqual(floor.matchOrPossibleRowRecall);
    expect(mp?.precision ?? 0, report).toBeGreaterThanOrEqual(floor.matchOrPossiblePrecision);
    expect(m && m.pairs > 0 ? m.rightProduct / m.pairs : 0, report).toBeGreaterThanOrEqual(floor.matchRightProduct);
    expect(excluded, report).toBeDefined();
    expect(excluded?.right, report).toBe(excluded?.pairs);
  });
});
