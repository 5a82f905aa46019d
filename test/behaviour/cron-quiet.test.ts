// Cron mails whatever reaches stderr: feed, sync and digest run unattended (no terminal) twice say nothing the second time,
// and the catalogue's warnings come with a digest or report once, then again only when the catalogue changes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The test's own GS1 check digit: weights 3,1 from the right of the body. */
function checkDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('feed, sync, digest and report as cron runs them, twice: the second round writes nothing to stderr', async () => {
    // feed against a tight minute window on an injected clock: each run has rate-limit waits to sit out, in no
    // real time. sync, digest and report on the real clock, which the archive's commit times follow.
    const clock = fakeClock();
    const rateLimits = {
      minute: { limit: 4, windowMs: 2000 },
      hour: { limit: 100_000, windowMs: 3_600_000 },
      day: { limit: 1_000_000, windowMs: 86_400_000 },
      month: { limit: 10_000_000 },
    };
    const limited: Sandbox = await sandboxFor({ seed: 12, recordCount: 60, rateLimits, clock: () => clock.now() });
    const sandbox: Sandbox = await sandboxFor({ seed: 12, recordCount: 60 });
    const archive = await testArchive(engine);
    const dir = tempDir('rf-cron-');
    // What lasts between cron runs: the config folder (and what it remembers) and the files written.
    const env = { RECALL_FEED_CONFIG_DIR: path.join(dir, 'config') };
    const catalog = path.join(dir, 'products.csv');
    const wrongCode = (body: string) => `${body}${(checkDigit(body) + 1) % 10}`;
    writeFileSync(catalog, `sku,gtin,name\nA1,${wrongCode('400638133393')},Kettle\n`);
    const runs = [
      [
        'feed',
        '--page-size',
        '10',
        '--state',
        path.join(dir, 'seen.json'),
        '-f',
        'csv',
        '-o',
        path.join(dir, 'new.csv'),
        '--append',
      ],
      ['sync', '--db', archive.db],
      ['digest', '--db', archive.db, '--catalog', catalog, '-o', path.join(dir, 'digest.txt')],
      ['report', '--db', archive.db, '--catalog', catalog, '-o', path.join(dir, 'report.html')],
    ];
    const round = async () => {
      const said: Record<string, string> = {};
      let waits = 0;
      for (const args of runs) {
        const r =
          args[0] === 'feed'
            ? await runMainAgainst(limited, args, { env, clock, stderrIsTTY: false })
            : await runMainAgainst(sandbox, args, { env, stderrIsTTY: false });
        expect(r.code, r.stderr).toBe(0);
        said[args[0] as string] = r.stderr;
        if (args[0] === 'feed') waits = r.sleeps.length;
      }
      return { said, waits };
    };
    const first = await round();
    // The catalogue's warning is said once, by the first command that read it.
    expect(first.said.digest).toMatch(/^warning: catalogue row 1: barcode '\d+' has a wrong check digit/);
    expect(first.said.digest?.trim().split('\n')).toHaveLength(1);
    expect(first.said.report).toBe('');
    const second = await round();
    // feed sat out its rate-limit waits, and said nothing of them.
    expect(second.waits).toBeGreaterThan(0);
    expect(second.said).toEqual({ feed: '', sync: '', digest: '', report: '' });
    // A changed catalogue has something new to say: all its warnings, once more.
    writeFileSync(
      catalog,
      `sku,gtin,name\nA1,${wrongCode('400638133393')},Kettle\nB2,${wrongCode('501234567890')},Lamp\n`,
    );
    const third = await round();
    expect(third.said.digest?.trim().split('\n')).toEqual([
      expect.stringMatching(/^warning: catalogue row 1: barcode/),
      expect.stringMatching(/^warning: catalogue row 2: barcode/),
    ]);
    expect({ ...third.said, digest: '' }).toEqual({ feed: '', sync: '', digest: '', report: '' });
  });
});
