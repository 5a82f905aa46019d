// `match` on 346 real agency notices and a retailer-style catalogue: it must not get worse than it is (floors, raised as it improves).
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import {
  CATALOGUE,
  formatReport,
  intoWindow,
  loadRecalls,
  loadTruth,
  score,
} from '../fixtures/real-notices/quality.mjs';

/**
 * Today's figures (bench/README.md, "match-quality.mjs"), as fractions of the 122 affected catalogue rows and
 * of the pairs found. Raise them when the matcher improves; never lower them to make a change pass.
 */
const FLOOR = {
  matchPrecision: 109 / 110,
  matchRowRecall: 107 / 122,
  matchOrPossibleRowRecall: 122 / 122,
  matchOrPossiblePrecision: 126 / 133,
  /** The 10 out-of-scope rows found as `excluded`, and how many excluded pairs were right. */
  excludedRowRecall: 10 / 10,
  excludedPrecision: 10 / 10,
  /** Out-of-scope rows (lot or date not in the notice) reported as match or possible. */
  overPulledAtMost: 0,
};

describe('match on the real-notice corpus', () => {
  it('finds at least today’s share of the recalled rows, at least as precisely', async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    const recalls = loadRecalls();
    sandbox.addRecords(intoWindow(recalls, Date.now()));

    // On a terminal, where the last line (the counts) is said.
    const { code, stdout, stderr } = await runMainAgainst(sandbox, ['match', '--catalog', CATALOGUE, '-f', 'jsonl'], {
      stderrIsTTY: true,
    });
    expect(code, stderr).toBe(0);
    // Every notice reached the matcher: one page, all of them.
    expect(stderr).toContain(`recalls: ${recalls.length}`);
    expect(sandbox.requests().map((r) => r.status)).toEqual([200]);

    const result = score(jsonLines(stdout), loadTruth());
    const report = formatReport(result);
    const [match, matchOrPossible, excluded] = result.levels;
    expect(result.unknownSkus, report).toBe(0);
    expect(match?.precision ?? 0, report).toBeGreaterThanOrEqual(FLOOR.matchPrecision);
    expect(match?.rowRecall ?? 0, report).toBeGreaterThanOrEqual(FLOOR.matchRowRecall);
    expect(matchOrPossible?.rowRecall ?? 0, report).toBeGreaterThanOrEqual(FLOOR.matchOrPossibleRowRecall);
    expect(matchOrPossible?.precision ?? 0, report).toBeGreaterThanOrEqual(FLOOR.matchOrPossiblePrecision);
    expect(excluded?.rowRecall ?? 0, report).toBeGreaterThanOrEqual(FLOOR.excludedRowRecall);
    expect(excluded?.precision ?? 0, report).toBeGreaterThanOrEqual(FLOOR.excludedPrecision);
    expect(result.overPulled, report).toBeLessThanOrEqual(FLOOR.overPulledAtMost);
  });
});
