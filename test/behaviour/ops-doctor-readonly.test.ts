// doctor only reads: no config folder, archive, state or lock file comes into being because it looked for them.
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
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

describe('doctor on a terminal and what an archive holds', () => {
  it('a source name stored in the archive reaches the table without its control codes', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const db = path.join(tempDir('rf-doctor-esc-'), 'recalls.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db, '--sources', 'us_cpsc'])).code).toBe(0);
    // Another tool (or a damaged copy) wrote the run's sources: the archive is data, not ours to trust.
    const raw = new Database(db);
    raw
      .prepare('UPDATE sync_runs SET params = ?')
      .run(JSON.stringify({ sources: ['us_cpsc\u001b]0;owned\u0007\u001b[2J'] }));
    raw.close();
    const r = await runMainAgainst(sandbox, ['doctor', '--db', db], { stdoutIsTTY: true, columns: 100 });
    // The name is still shown (what remains of it once the codes are gone), in the name column and the detail.
    expect(r.stdout).toContain('us_cpsc]0;owned[2J: last successful sync');
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
