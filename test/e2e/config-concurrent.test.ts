// Ten `config set` processes at once on one config file: every setting survives, and the file stays 0600.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

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
