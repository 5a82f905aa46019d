// Real processes overlapping on the same files: overlapping cron runs on one csv and one state file take turns (no id
// written twice, none lost); ten `config set` at once on one config file keep every setting in a 0600 file. A run that
// cannot get the lock in time: test/behaviour/run-lock-wait.test.ts.
import fs, { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
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
});

function readdirNames(dir: string): string[] {
  return readdirSync(dir).sort();
}

// Ten different keys, each with a valid value; the API key is read from stdin, as the CLI requires.
const SETTINGS: Record<string, string | number> = {
  'api-key': 'dr_live_concurrentkey0123456789',
  'base-url': 'http://127.0.0.1:9/',
  format: 'csv',
  sources: 'us_cpsc',
  'page-size': 50,
  timeout: 7,
  'max-wait': 3,
  retries: 2,
  db: 'archive.sqlite',
  'email-from': 'alerts@example.com',
};

describe('config set from concurrent processes', () => {
  it('keeps all ten keys, in a 0600 file', async () => {
    const dir = tempDir('rf-conc-');
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    const runs = Object.entries(SETTINGS).map(([key, value]) =>
      key === 'api-key'
        ? runCli(['config', 'set', key], { env, input: `${value}\n` })
        : runCli(['config', 'set', key, String(value)], { env }),
    );
    const results = await Promise.all(runs);
    for (const r of results) {
      expect(r.stderr).toMatch(/^saved /);
      expect(r.exitCode).toBe(0);
    }
    const file = path.join(dir, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')).profiles.default;
    expect(stored).toEqual(SETTINGS);
    // No lock or temporary file is left beside it.
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });
});
