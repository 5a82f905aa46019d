// A recall with a field of megabytes, on a terminal: `show` prints the first 10,000 characters and how many
// more there are, and feed's narrow record blocks show three lines of it; both finish.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';

const SUMMARY_LENGTH = 3_000_000;
const NAME_LENGTH = 200_000;
/** One unbroken word, no space to wrap at: a repeating alphabet, so a cut in the wrong place shows. */
const unbroken = (n: number) => 'abcdefghijklmnopqrstuvwxyz'.repeat(Math.ceil(n / 26)).slice(0, n);

let sandbox: Sandbox;
let huge: SpecRecall;
const folder = tempFolder('rf-huge-');
const db = folder.file('recalls.db');

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 3, seed: 5, clock: () => FIXED_START });
  [huge] = sandbox.addRecords([
    { alert_summary: unbroken(SUMMARY_LENGTH), product_name: `Big ${unbroken(NAME_LENGTH)}` },
  ]) as [SpecRecall];
  const synced = await runMainAgainst(sandbox, ['sync', '--db', db]);
  expect(synced.code).toBe(0);
});
afterAll(async () => {
  await sandbox.close();
});

const TERMINAL = (columns: number) => ({ RECALL_FEED_FORCE_TTY: '1', COLUMNS: String(columns) });

describe('a multi-megabyte field on a terminal', () => {
  it('show: the first 10,000 characters, wrapped, then how many more', async () => {
    const r = await runMain(['show', String(huge.id), '--db', db], { env: TERMINAL(100) });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const start = lines.findIndex((l) => l.startsWith('alert summary'));
    expect(start).toBeGreaterThan(-1);
    const more = lines.findIndex((l, i) => i > start && l.includes('more characters)'));
    expect(lines[more]!.trim()).toBe(`… (${SUMMARY_LENGTH - 10_000} more characters)`);
    const shown = lines
      .slice(start, more)
      .map((l, i) => (i === 0 ? l.replace(/^alert summary\s+/, '') : l.trim()))
      .join('');
    expect(shown).toBe(unbroken(10_000));
    // Bounded: the whole view is far smaller than the record.
    expect(r.stdout.length).toBeLessThan(40_000);
  });

  it("feed's narrow record blocks: three lines of the 200 KB name, the last cut with …", async () => {
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'table', '--columns', 'id,product_name'], {
      env: TERMINAL(12),
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf(`id: ${huge.id}`);
    expect(at).toBeGreaterThan(-1);
    const name = unbroken(NAME_LENGTH);
    // A value on the lines below its label, one space in, 11 columns each: "Big", then the word in pieces.
    expect(lines.slice(at + 1, at + 5)).toEqual([
      'product_nam…', // the label, 13 columns, is cut to the 12 there are
      ' Big',
      ` ${name.slice(0, 11)}`,
      ` ${name.slice(11, 21)}…`,
    ]);
  });
});
