// A key in a hand-edited profile that no setting reads ("pagesize" for page-size): every run that reads the profile
// warns of it once, with a guess and the command that removes it; `config list` too; doctor's config check warns;
// `config unset` removes it, which it refuses for an unknown key the file does not hold.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 3 });
});
afterAll(async () => {
  await sandbox.close();
});

/** A config folder whose file holds `profiles`, written by hand (as a user's editor would). */
function handEdited(profiles: Record<string, Record<string, string | number>>) {
  const dir = tempDir('rf-unknown-key-');
  const file = path.join(dir, 'config.json');
  writeFileSync(file, `${JSON.stringify({ profiles })}\n`, { mode: 0o600 });
  return { env: { RECALL_FEED_CONFIG_DIR: dir }, file };
}

const warning = (file: string, profile = 'default', option = '') =>
  `warning: unknown config key "pagesize" (did you mean "page-size"?) in profile '${profile}' of ${file} is ignored; ` +
  `remove it with: recall-feed${option} config unset pagesize\n`;

const stored = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { profiles?: Record<string, unknown> };

describe('an unknown key in the profile', () => {
  it('a run warns of it once, with the guess, and goes on without it', async () => {
    const { env, file } = handEdited({ default: { pagesize: 2, format: 'csv' } });
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['feed', '--max', '4'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(warning(file));
    // The profile's known key still holds (csv); the unknown one was not taken for the page size (2 a page).
    expect(r.stdout.split('\n')[0]).toMatch(/^id,/);
    const feed = sandbox.requests().filter((q) => q.path.startsWith('/v1/recalls/feed'));
    expect(feed.map((q) => q.query.limit)).toEqual(['4']);
  });

  it('a key holding ESC and a line break is shown escaped, on one line, and unset says it the same way', async () => {
    const key = 'bad\u001b[31mkey\nforged';
    const { env, file } = handEdited({ default: { [key]: 1 } });
    const r = await runMainAgainst(sandbox, ['feed', '--max', '1', '-f', 'jsonl'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `warning: unknown config key "bad\\u001b[31mkey\\nforged" in profile 'default' of ${file} is ignored; remove it with: edit ${file}\n`,
    );
    const unset = await runMain(['config', 'unset', key], { env });
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.stderr).toBe(
      `removed "bad\\u001b[31mkey\\nforged", which is no config key, from profile 'default' in ${file}\n`,
    );
    expect(JSON.stringify(stored(file))).not.toContain('forged');
  });

  it('--profile names the profile, and the remedy carries it', async () => {
    const { env, file } = handEdited({ prod: { pagesize: 2 } });
    const r = await runMainAgainst(sandbox, ['--profile', 'prod', 'feed', '--max', '1', '-f', 'jsonl'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(warning(file, 'prod', ' --profile prod'));
  });

  it('config list prints what the file holds and warns of the key on stderr', async () => {
    const { env, file } = handEdited({ default: { pagesize: 5 } });
    const r = await runMain(['config', 'list'], { env });
    expect(r).toMatchObject({ code: 0, stdout: 'pagesize=5\n', stderr: warning(file) });
  });

  it("doctor's config check warns of it (exit 15), with the command that removes it", async () => {
    const { env, file } = handEdited({ default: { pagesize: 5 } });
    const r = await runMain(['doctor', '--sandbox', '-f', 'json'], { env });
    expect(r.code, r.stdout).toBe(15);
    const checks = (
      JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; hint?: string }[] }
    ).checks;
    expect(checks.find((c) => c.name === 'config')).toEqual({
      name: 'config',
      status: 'warn',
      detail: `unknown config key "pagesize" (did you mean "page-size"?) in profile 'default' of ${file} is ignored`,
      hint: 'recall-feed config unset pagesize',
    });
    expect(checks.filter((c) => c.name !== 'config' && c.status !== 'ok' && c.status !== 'skip')).toEqual([]);
  });

  it('config unset removes it, says it was no config key, and the next run is silent', async () => {
    const { env, file } = handEdited({ default: { pagesize: 5, format: 'csv' } });
    const r = await runMain(['config', 'unset', 'pagesize'], { env });
    expect(r).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `removed "pagesize", which is no config key, from profile 'default' in ${file}\n`,
    });
    expect(stored(file).profiles).toEqual({ default: { format: 'csv' } });
    const list = await runMain(['config', 'list'], { env });
    expect(list).toMatchObject({ code: 0, stdout: 'format=csv\n', stderr: '' });
  });

  it('config unset still refuses an unknown key the profile does not hold (exit 2), changing nothing', async () => {
    const { env, file } = handEdited({ default: { pagesize: 5 } });
    const before = readFileSync(file, 'utf8');
    const r = await runMain(['config', 'unset', 'formt'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown config key "formt" \(did you mean "format"\?\); valid keys: api-key, /);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
