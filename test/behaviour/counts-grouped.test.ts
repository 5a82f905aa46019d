// Counts as people read them, the same in every place a screen shows them: the digest's section headings as its
// headline (1,185, not 1185), and doctor's quota as the feed's summary. Expected counts come from the sandbox's records.
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectedFeed } from '../helpers/expected.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
let db: string;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 1400, seed: 12, clock: () => FIXED_START });
  db = path.join(tempDir('rf-grouped-'), 'a.db');
  const sync = await runMainAgainst(sandbox, ['sync', '--db', db]);
  expect(sync.code, sync.stderr).toBe(0);
});

it("the digest's New heading groups its digits as the headline does, in text and markdown", async () => {
  const count = expectedFeed(sandbox, { now: FIXED_START }).length;
  expect(count).toBeGreaterThan(999);
  const shown = count.toLocaleString('en-US');
  for (const [format, heading] of [
    ['text', `new (${shown})`],
    ['markdown', `## New (${shown})`],
  ]) {
    const r = await runMainAgainst(sandbox, ['digest', '--db', db, '-f', format!]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${shown} new`);
    expect(r.stdout.split('\n')).toContain(heading);
  }
});

it("doctor's quota groups its digits as the feed's summary does", async () => {
  const r = await runMainAgainst(sandbox, ['doctor', '--every', '1h', '-f', 'json'], { clock: fakeClock(FIXED_START) });
  const quota = (JSON.parse(r.stdout) as { checks: { name: string; detail: string }[] }).checks.find(
    (c) => c.name === 'quota',
  );
  // The sandbox's generous test limits: millions of credits, grouped.
  expect(quota?.detail).toMatch(
    /^\d{1,3}(,\d{3})+ of \d{1,3}(,\d{3})+ credits left this month; every 1h until the reset: /,
  );
});
