// The flags of match --open-cases, cases and report, in process: each bad one is exit 2 with its own message, and touches no file.
import { existsSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../helpers/archive.js';
import { runMain } from '../helpers/in-process.js';

const folder = tempFolder('rf-cases-flags-');
const catalog = folder.file('products.csv');
writeFileSync(catalog, 'sku,gtin\nA,4006381333931\n');
const db = folder.file('never.db');

const BAD: Array<[string[], string]> = [
  [
    ['match', '--catalog', catalog, '--archive', '--open-cases', '--key', 'EAN'],
    'error: --key EAN: the catalogue has no such column\nhint: its columns: sku, gtin\n',
  ],
  [['match', '--catalog', catalog, '--archive', '--key', 'sku'], 'error: --key works with --open-cases\n'],
  [
    ['match', '--catalog', catalog, '--open-cases'],
    'error: --open-cases keeps its cases in the archive: use it with --archive or --watch\n',
  ],
  [['cases', '--status', 'done'], "error: --status must be one of open, waiting, closed, all, not 'done'\n"],
  [['cases', '--level', 'maybe'], "error: --level must be one of match, possible, not 'maybe'\n"],
  [
    ['cases', 'resolve', '3', '--as', 'safe'],
    "error: --as must be one of removed-from-sale, action-taken, not-our-product, false-positive, no-action-needed, not 'safe'\n",
  ],
  [['cases', 'wait', '0'], "error: a case id is a whole number from 1, not '0'\nhint: list them: recall-feed cases\n"],
  [['cases', 'reopen', '2', '--note', ' '], 'error: --note needs some text\n'],
  [['cases', 'wait', '2', '--by', ''], 'error: --by needs some text\n'],
  [
    ['cases', 'reslove', '1'],
    "error: unknown cases subcommand 'reslove'\nhint: one of: show, resolve, wait, reopen, verify (or none, to list)\n",
  ],
  [['cases', 'wait', '2', '--level', 'possible'], 'error: give case ids or a selection (--level), not both\n'],
  [
    ['cases', 'wait'],
    'error: wait needs case ids, or a selection such as --level possible\nhint: example: recall-feed cases wait 12 13\n',
  ],
  [['cases', 'resolve', '2', 'x', '--as', 'false-positive'], "error: a case id is a whole number from 1, not 'x'\n"],
  [['cases', 'show', '1', '0'], "error: a case id is a whole number from 1, not '0'\n"],
  [['report', '-f', 'table'], "error: --format must be one of html, json, csv, markdown, not 'table'\n"],
  [
    ['report', '--since', '2026-02-01', '--until', '2026-01-01'],
    'error: --until 2026-01-01 is not after --since 2026-02-01: the window would be empty\n',
  ],
  [['report', '--map', 'gtin=EAN'], 'error: --map works with --catalog\n'],
];

describe('bad flags', () => {
  it.each(BAD)('%j', async (args, stderr) => {
    const r = await runMain([...args, '--db', db]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    // The error line exactly, and the hints this table names (others, such as a flag's values, may follow).
    expect(r.stderr.replace(/^hint: .*\n/gm, (h) => (stderr.includes(h) ? h : ''))).toBe(stderr);
    expect(existsSync(db)).toBe(false);
  });

  it('resolve without --as is refused by the parser', async () => {
    const r = await runMain(['cases', 'resolve', '3', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("required option '--as <outcome>' not specified");
  });
});
