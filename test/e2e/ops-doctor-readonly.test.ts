// doctor only reads: no config folder, archive, state or lock file comes into being because it looked for them.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('doctor is read-only', () => {
  it('names what is missing and creates none of it (config folder, archive, state, lock), the key never shown', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const dir = tempDir('rf-doctor-ro-');
    const config = path.join(dir, 'config');
    const db = path.join(dir, 'archive', 'recalls.db');
    const state = path.join(dir, 'seen.json');
    const lock = path.join(dir, 'out.jsonl');
    const r = await runMainAgainst(
      sandbox,
      ['doctor', '--db', db, '--state', state, '--lock', lock, '--check-delivery', '-f', 'json'],
      { env: { RECALL_FEED_CONFIG_DIR: config } },
    );
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string }[] }).checks;
    expect(checks.find((c) => c.name === 'archive')?.status).toBe('fail');
    expect(r.code).toBe(16);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(config)).toBe(false);
    expect(r.stdout + r.stderr).not.toContain(ALL_KEY);
  });
});
