// A shared archive written from hosts whose clocks differ, on both engines: a case's events never go back in time.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCheck, yoghurtWithBarcode } from '../helpers/barcodes.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const HOUR = 3_600_000;

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('a step from a host whose clock is behind is stamped at the case’s last event, not before it', async () => {
    const { db } = await testArchive(engine);
    const dir = tempDir('rf-case-skew-');
    // The host that syncs and opens the case; the other one's clock is 4 days behind, before the recall's publication.
    const opener = fakeClock(FIXED_START + 36 * HOUR);
    const behind = fakeClock(FIXED_START - 60 * HOUR);
    const sandbox = await sandboxFor({ recordCount: 0, seed: 3, clock: () => FIXED_START });
    const code = withCheck('356000000001');
    sandbox.addRecords([yoghurtWithBarcode(code)]);
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: opener })).code).toBe(0);
    const catalog = path.join(dir, 'catalogue.csv');
    writeFileSync(catalog, `sku,ean\nA1,${code}\n`);
    const opened = await runMain(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases'], {
      clock: opener,
    });
    expect(opened.code, opened.stderr).toBe(0);
    const openedAt = new Date(opener.now()).toISOString();

    const step = await runMain(['cases', 'resolve', '1', '--as', 'removed-from-sale', '--db', db, '-f', 'json'], {
      clock: behind,
    });
    expect(step.code, step.stderr).toBe(0);
    const resolved = JSON.parse(step.stdout) as Rec;
    expect([resolved.opened_at, resolved.updated_at, resolved.status]).toEqual([openedAt, openedAt, 'closed']);
    expect(resolved.events.map((e: Rec) => [e.action, e.at])).toEqual([
      ['opened', openedAt],
      ['resolved', openedAt],
    ]);
    // The report's time to action runs from publication to the resolution, stamped at the opening: not negative.
    const published = Date.parse(sandbox.records()[0]!.published_at as string);
    const report = await runMain(['report', '--db', db, '-f', 'json'], { clock: opener });
    expect(report.code, report.stderr).toBe(0);
    const summary = (JSON.parse(report.stdout) as Rec).summary as Rec;
    const hours = Math.round(((Date.parse(openedAt) - published) / HOUR) * 10) / 10;
    expect(hours).toBeGreaterThan(0);
    expect([summary.closed, summary.time_to_action.median_hours]).toEqual([1, hours]);

    // A later step from the host whose clock is right is stamped with its own time.
    opener.advance(HOUR);
    const reopened = await runMain(['cases', 'reopen', '1', '--db', db, '-f', 'json'], { clock: opener });
    expect(reopened.code, reopened.stderr).toBe(0);
    expect((JSON.parse(reopened.stdout) as Rec).events.at(-1).at).toBe(new Date(opener.now()).toISOString());
    const verify = await runMain(['cases', 'verify', '--db', db, '-f', 'json'], { clock: opener });
    expect([verify.code, verify.stderr, (JSON.parse(verify.stdout) as Rec).ok]).toEqual([0, '', true]);
  });
});
