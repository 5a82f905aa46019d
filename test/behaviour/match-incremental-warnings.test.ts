// An incremental `match --archive` says what a full run says of its inputs, even with nothing new to check; and a run
// from cron that went well says nothing at all (cron mails whatever reaches stderr).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { storeRun } from '../helpers/archive.js';
import { type MainOptions, runMain } from '../helpers/in-process.js';
import { generatedRecalls, gtin13 } from '../helpers/match-generated.js';
import { type Engine, ENGINES } from '../helpers/postgres.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;

/** The valid GTIN a generated recall lists as a `gtin` identifier, if any. */
const gtinOf = (r: Rec): string | undefined => {
  const [first] = r.standard_identifiers_and_barcodes as unknown[];
  const value = (first as { type?: string; value?: string } | undefined)?.value;
  return value !== undefined && gtin13(value.slice(0, 12)) === value ? value : undefined;
};

/** An archive holding `recalls`, a folder with a catalogue, and `match --archive` of the two (its own cache). */
async function setup(engine: Engine, recalls: Rec[]) {
  const archive = await testArchive(engine);
  await storeRun(archive.db, recalls);
  const dir = tempDir('rf-incr-warn-');
  const cache = tempDir('rf-incr-warn-cache-');
  const run = (args: string[], opts: MainOptions = {}) =>
    runMain(['match', '--archive', '--db', archive.db, ...args], {
      ...opts,
      env: { RECALL_FEED_CACHE_DIR: cache, ...opts.env },
    });
  return { archive, dir, run };
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning: '));

describe.each(ENGINES)('match --archive on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it.each([
    { name: 'a catalogue held whole, --learned naming no file', big: false, flags: ['--learned', 'typo.json'] },
    { name: 'with --open-cases, a learned file match --learn did not write', big: false, flags: ['--open-cases'] },
    { name: 'a catalogue that streams, --learned naming no file', big: true, flags: ['--learned', 'typo.json'] },
    { name: 'a catalogue that streams, with --open-cases', big: true, flags: ['--open-cases'] },
  ])('$name: a run with nothing new says the warnings of a full run', async ({ big, flags }) => {
    const recalls = generatedRecalls(60, 31);
    const hit = recalls.map(gtinOf).find((g) => g !== undefined) as string;
    const { dir, run } = await setup(engine, recalls);
    // Windows-1252 (é, û), a repeated column, a rejected barcode, a wrong check digit, a row of too many cells.
    const rows = [
      'sku,ean,name,lot,ean',
      `A1,${hit},Crème brûlée,,`,
      'A2,12345,Bad code,,',
      'A3,3047256804776,Wrong check,,3047256804775',
      'A4,4006381333931,Too many,L1,,extra',
    ].join('\n');
    const text = big ? paddedToStream(rows, (i) => `P${i},,Qwzt vrk ${i},,`).text : `${rows}\n`;
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(catalog, Buffer.from(text, 'latin1'));
    writeFileSync(`${catalog}.learned.json`, '{"not":"learned"}');
    const args = [
      '--catalog',
      catalog,
      '-f',
      'jsonl',
      ...flags.map((f) => (f === 'typo.json' ? path.join(dir, f) : f)),
    ];
    // On a terminal, so that each run also says which kind of run it was.
    const terminal = { stderrIsTTY: true };

    const first = await run(args, terminal);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('checking every recall: no earlier run');
    const said = warnings(first.stderr);
    const learned = flags.includes('--learned')
      ? `warning: --learned ${path.join(dir, 'typo.json')}: no such file; matching without what match --learn learned`
      : `warning: ${catalog}.learned.json is not a file match --learn wrote: ignored (run match --learn again to rewrite it)`;
    for (const expected of [
      learned,
      `warning: ${catalog} is not UTF-8: read as Windows-1252`,
      "warning: catalogue column 'ean' appears 2 times (columns 2, 5)",
      "warning: catalogue row 2: barcode '12345' rejected",
      "warning: catalogue row 3: barcode '3047256804776' has a wrong check digit",
      'warning: catalogue row 4: not the header',
    ])
      expect(
        said.some((l) => l.startsWith(expected)),
        expected,
      ).toBe(true);

    const again = await run(args, terminal);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('checked 0 recalls new or changed since');
    expect(again.stdout).toBe(first.stdout);
    expect(warnings(again.stderr)).toEqual(said);
    const full = await run([...args, '--full'], terminal);
    expect(warnings(full.stderr)).toEqual(said);
  });

  it('a repeated cron run that went well writes nothing to stderr; on a terminal or with -v it says its summary', async () => {
    const recalls = generatedRecalls(90, 37);
    const { archive, dir, run } = await setup(engine, recalls);
    const hits = recalls.filter((r) => gtinOf(r) !== undefined).slice(0, 4);
    expect(hits.length).toBe(4);
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(catalog, `sku,ean,name\n${hits.map((r, i) => `S${i},${gtinOf(r)},Product ${i}`).join('\n')}\n`);
    const output = path.join(dir, 'matches.csv');
    const args = ['--catalog', catalog, '--open-cases', '--sla', '2wd', '-o', output];

    for (const attempt of ['first', 'repeat']) {
      const cron = await run(args);
      expect(cron.code, attempt).toBe(0);
      expect(cron.stderr, attempt).toBe('');
      expect(cron.stdout, attempt).toBe('');
    }
    const cases = await runMain(['cases', '--db', archive.db, '--status', 'all', '-f', 'jsonl']);
    expect(cases.stdout.trim().split('\n')).toHaveLength(4);

    // Said to someone watching, or asked for: which cases, which kind of run, the counts.
    const summary = [
      'cases: 0 opened · 4 pairs already had one',
      'match --archive: checked 0 recalls new or changed since <horizon>; 4 results carried over',
      'catalogue: 4 rows · 0 barcodes rejected · recalls: 90 in the archive · 4 matches · 0 possible',
      '',
    ].join('\n');
    for (const [how, extra, opts] of [
      ['on a terminal', [], { stderrIsTTY: true }],
      ['with -v', ['-v'], {}],
    ] as const) {
      const told = await run([...args, ...extra], opts);
      expect(told.code, how).toBe(0);
      expect(told.stderr.replace(/since \S+;/, 'since <horizon>;'), how).toBe(summary);
    }
  });
});
