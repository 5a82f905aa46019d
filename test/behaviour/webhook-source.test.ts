// A webhook URL refused is blamed on where it came from: --webhook, RECALL_FEED_WEBHOOK or the profile's webhook
// (a bare --webhook takes one of the last two); `config set webhook` refuses such a value in the first place.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const HTTPS_HINT = 'hint: webhook URLs carry a token: only https, or plain http to this machine\n';
const PROFILE_HINT =
  'hint: store a good one with `recall-feed config set webhook` (reads it from stdin): only https, or plain http to this machine\n';

/** A config folder whose default profile holds `webhook`, written by hand as docs/settings.md describes the file. */
function profileWith(webhook: string): { RECALL_FEED_CONFIG_DIR: string } {
  const dir = tempDir('rf-config-');
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ profiles: { default: { webhook } } }), { mode: 0o600 });
  return { RECALL_FEED_CONFIG_DIR: dir };
}

describe('a refused webhook names its source', () => {
  it("the profile's webhook without a scheme, taken by a bare --webhook: the profile is named, nothing is sent", async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const env = profileWith('hooks.example.com/x');
    for (const command of [
      ['feed', '--watch', '--webhook'],
      ['sync', '--db', path.join(tempDir(), 'r.db'), '--webhook'],
    ]) {
      const r = await runMainAgainst(sandbox, command, { env });
      expect(r.stderr).toBe(`error: the profile's webhook is not a URL\n${PROFILE_HINT}`);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(sandbox.requests()).toEqual([]);

    // A URL on the line is the flag's, whatever the profile holds.
    const given = await runMainAgainst(sandbox, ['feed', '--watch', '--webhook', 'nope'], { env });
    expect(given.stderr).toBe(`error: --webhook is not a URL\n${HTTPS_HINT}`);
    expect(given.code).toBe(2);
  });

  it('RECALL_FEED_WEBHOOK comes before the profile, and is named for each refusal', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const env = profileWith('https://hooks.example.com/fine');
    const cases: [string, string][] = [
      ['ftp://hooks.example.com/x', 'error: RECALL_FEED_WEBHOOK must be an https URL, not ftp:\n'],
      [
        'https://bot:pw@hooks.example.com/x',
        'error: RECALL_FEED_WEBHOOK must not carry user:password@ (the receiver would never see them)\n',
      ],
      [
        'http://hooks.example.com/secret-token',
        'error: refusing to send recalls to a plain http webhook on hooks.example.com (RECALL_FEED_WEBHOOK): use https\n',
      ],
    ];
    for (const [hook, message] of cases) {
      const r = await runMainAgainst(sandbox, ['feed', '--watch', '--webhook'], {
        env: { ...env, RECALL_FEED_WEBHOOK: hook },
      });
      expect(r.stderr).toBe(`${message}${HTTPS_HINT}`);
      expect(r.code).toBe(2);
    }
    expect(sandbox.requests()).toEqual([]);
  });

  it('digest --webhook and doctor --check-delivery name the profile too', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const env = profileWith('hooks.example.com/x');
    const digest = await runMain(['digest', '--db', path.join(tempDir(), 'none.db'), '--webhook'], { env });
    expect(digest.stderr).toBe(`error: the profile's webhook is not a URL\n${PROFILE_HINT}`);
    expect(digest.code).toBe(2);

    const doctor = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '-f', 'json'], { env });
    expect(doctor.code).toBe(16);
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks;
    expect(checks.find((c) => c.name === 'webhook')).toEqual({
      name: 'webhook',
      status: 'fail',
      detail: "the profile's webhook is not a URL",
    });
    const flagged = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '--webhook', 'x', '-f', 'json'], {
      env,
    });
    expect(JSON.parse(flagged.stdout).checks.find((c: { name: string }) => c.name === 'webhook').detail).toBe(
      '--webhook is not a URL',
    );
  });

  it('config set webhook refuses a URL without a scheme, and leaves the profile as it was', async () => {
    const env = profileWith('https://hooks.example.com/kept');
    const file = path.join(env.RECALL_FEED_CONFIG_DIR, 'config.json');
    const before = readFileSync(file, 'utf8');
    const r = await runMain(['config', 'set', 'webhook'], { env, stdin: 'hooks.example.com/x\n' });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: invalid value for webhook: expected an https:// URL (plain http only to this machine)',
    );
    expect(r.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
