// doctor only reads: no config folder, archive, state or lock file comes into being because it looked for them.
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
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

describe('doctor and an existing config file', () => {
  it('leaves it as it was: bytes, mode and modification time (it warns about the mode, never fixes it)', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const config = tempDir('rf-doctor-cfg-');
    const file = path.join(config, 'config.json');
    const text = `${JSON.stringify({ profiles: { default: { 'api-key': ALL_KEY, timeout: 20 } } }, null, 2)}\n`;
    writeFileSync(file, text, { mode: 0o644 });
    chmodSync(file, 0o644);
    const past = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, past, past);
    const r = await runMain(['--base-url', sandbox.url, 'doctor', '-f', 'json'], {
      env: { RECALL_FEED_CONFIG_DIR: config },
    });
    expect(r.code).toBe(15);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(statSync(file).mtime.toISOString()).toBe(past.toISOString());
    expect(readdirSync(config)).toEqual(['config.json']);
    expect(r.stdout + r.stderr).not.toContain(ALL_KEY);
  });
});
