// Overlapping cron runs on one csv and one state file: they take turns; no id is written twice, none is lost.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runAgainst, sandboxFor, tempDir } from '../helpers/cli.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';

describe('overlapping cron runs', () => {
  it('three at once, in rounds, while recalls arrive: each id once in the file, every remembered id in it', async () => {
    // 600 arrivals a minute: new recalls between (and during) the rounds.
    const sandbox = await sandboxFor({ seed: 5, recordCount: 200, arrivalsPerMinute: 600 });
    const dir = tempDir();
    const csv = path.join(dir, 'c.csv');
    const state = path.join(dir, 'c.json');
    const args = [
      'feed',
      '--state',
      state,
      '-f',
      'csv',
      '-o',
      csv,
      '--append',
      '--page-size',
      '50',
      '--lock-wait',
      '60',
    ];
    for (let round = 0; round < 4; round++) {
      const runs = await Promise.all([runAgainst(sandbox, args), runAgainst(sandbox, args), runAgainst(sandbox, args)]);
      // Every overlapping run waits its turn and succeeds.
      for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    }
    const rows = await parseCsvWithPython(csv);
    const header = rows[0] as string[];
    expect(rows.filter((r) => r[0] === 'id')).toHaveLength(1);
    const ids = rows.slice(1).map((r) => r[header.indexOf('id')]);
    expect(new Set(ids).size).toBe(ids.length);
    const remembered = Object.keys(JSON.parse(readFileSync(state, 'utf8')).seen);
    expect(new Set(ids)).toEqual(new Set(remembered));
    // Nothing missed: every recall in the window before one more run is in the file after it.
    const window = jsonLines((await runAgainst(sandbox, ['feed', '-f', 'jsonl'])).stdout).map((r) => String(r.id));
    const after = await runAgainst(sandbox, args);
    expect(after.exitCode).toBe(0);
    const final = new Set((await parseCsvWithPython(csv)).slice(1).map((r) => r[header.indexOf('id')]));
    expect(window.filter((id) => !final.has(id))).toEqual([]);
    expect(final.size).toBe((await parseCsvWithPython(csv)).length - 1);
    // The lock left nothing behind.
    expect(readdirNames(dir)).toEqual(['c.csv', 'c.json']);
  }, 120_000);

  it('a run that cannot get the lock in time exits 9 and names the holder', async () => {
    const sandbox = await sandboxFor({ seed: 5, recordCount: 50 });
    const dir = tempDir();
    const out = path.join(dir, 'slow.jsonl');
    const { acquireRunLock } = await import('../../src/runtime/files/run-lock.js');
    const lock = await acquireRunLock([out], { waitMs: 0 });
    try {
      const r = await runAgainst(sandbox, ['feed', '-o', out, '--lock-wait', '1']);
      expect(r.exitCode).toBe(9);
      expect(r.stderr).toMatch(new RegExp(`in use by .*pid ${process.pid}`));
      expect(r.stderr).toMatch(/^error: .*slow\.jsonl/m);
      expect(r.stderr).toContain('--lock-wait');
      const log = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { requests: unknown[] };
      expect(log.requests).toEqual([]);
    } finally {
      await lock.release();
    }
  });
});

function readdirNames(dir: string): string[] {
  return readdirSync(dir).sort();
}
