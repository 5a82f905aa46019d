// A --columns value of 100 KB (one name, or many): the "did you mean" search is bounded, so the command ends at once with
// its one-line warning or error, and no suggestion for a name no known field is within reach of.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const LONG = 'x'.repeat(100_000);

/**
 * The defect was time: 12 to 26 s each here, spent on the guesses. The answers assert what is printed; this bound
 * (several times what each takes now) is what fails the unbounded search.
 */
const BOUND = { timeout: 8_000 };

describe('--columns with a 100 KB value', () => {
  it('feed -f jsonl: the one-line warning that jsonl prints whole records, exit 0', BOUND, async () => {
    const r = await runMain(['feed', '--sandbox', '-f', 'jsonl', '--max', '2', '--columns', LONG]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('warning: --columns applies to table, csv and parquet only; jsonl prints whole records\n');
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
  });

  it(
    'feed -f csv: the name is taken as a field the API added, left empty with a one-line warning and no guess',
    BOUND,
    async () => {
      const r = await runMain(['feed', '--sandbox', '-f', 'csv', '--max', '2', '--columns', `id,${LONG}`]);
      expect(r.code, r.stderr).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => l !== '');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^warning: no record has the column 'x{100,}/);
      expect(warnings[0]).not.toContain('did you mean');
    },
  );

  it('query: a name outside the field grammar is refused, exit 2, in one error line with no guess', BOUND, async () => {
    const db = path.join(tempDir('rf-columns-long-'), 'a.db');
    const synced = await runMain(['sync', '--sandbox', '--db', db, '-q']);
    expect(synced.code, synced.stderr).toBe(0);
    const r = await runMain(['query', '--db', db, '-f', 'csv', '--columns', `${LONG}-`]);
    expect(r.code).toBe(2);
    const [error, ...hints] = r.stderr.split('\n').filter((l) => l !== '');
    expect(error).toMatch(/^error: --columns has an unknown column: 'x{100,}/);
    expect(hints.join('\n')).not.toContain('did you mean');
    expect(r.stdout).toBe('');
  });
});
