// An SMTP password holding a literal `%` that starts no escape (`100%pure`): taken as typed, sent as typed in AUTH
// to a real SMTP server on loopback, and never printed. Escapes that do decode still decode.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

const PASSWORD = '100%pure';
/** The password as typed, or percent-encoded. */
const holdsPassword = (text: string) => text.includes(PASSWORD) || text.includes('100%25pure');

describe('an SMTP password with a lone %', () => {
  it('feed --email: the server, which accepts only 100%pure, takes the login and the message; the password is printed nowhere', async () => {
    const sandbox = await sandboxFor({ seed: 7, recordCount: 5 });
    const smtp = await smtpServer({ user: 'bob', pass: PASSWORD });
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const url = `smtp://bob:${PASSWORD}@127.0.0.1:${smtp.port}`;
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--state',
      state,
      '-o',
      path.join(dir, 'out.jsonl'),
      '--email',
      'team@example.test',
      '--email-from',
      'recalls@example.test',
      '--smtp-url',
      url,
    ]);
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    // The server refuses any other password: a message arrived, so AUTH carried 100%pure exactly.
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.rcpt).toEqual(['team@example.test']);
    const written = readFileSync(path.join(dir, 'out.jsonl'), 'utf8');
    for (const text of [r.stdout, r.stderr, written, readFileSync(state, 'utf8'), smtp.received[0]?.text ?? ''])
      expect(holdsPassword(text)).toBe(false);
  });

  it('config set smtp-url takes it, and doctor --check-delivery logs in with it', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const smtp = await smtpServer({ user: 'bob', pass: PASSWORD });
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-config-') };
    const set = await runMain(['config', 'set', 'smtp-url'], {
      env,
      stdin: `smtp://bob:${PASSWORD}@127.0.0.1:${smtp.port}\n`,
    });
    expect(set.stderr).toMatch(/^saved smtp-url for profile 'default' in .*config\.json\n$/);
    expect(set.code).toBe(0);
    const r = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '-f', 'json'], { env });
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks;
    expect(checks.find((c) => c.name === 'smtp')).toEqual({
      name: 'smtp',
      status: 'ok',
      detail: `smtp://127.0.0.1:${smtp.port} greets and accepts the login`,
    });
    expect(holdsPassword(r.stdout + r.stderr + set.stdout + set.stderr)).toBe(false);

    // A password the server does not take fails the check without showing either.
    const wrong = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '-f', 'json'], {
      env: { ...env, RECALL_FEED_SMTP_URL: `smtp://bob:100%25pure%21@127.0.0.1:${smtp.port}` },
    });
    expect(wrong.code).toBe(16);
    expect(JSON.parse(wrong.stdout).checks.find((c: { name: string }) => c.name === 'smtp').status).toBe('fail');
    expect(holdsPassword(wrong.stdout + wrong.stderr)).toBe(false);
  });

  it('an escape that decodes is still decoded: 100%25pure is the same password', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const smtp = await smtpServer({ user: 'bob', pass: PASSWORD });
    const r = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '-f', 'json'], {
      env: { RECALL_FEED_SMTP_URL: `smtp://bob:100%25pure@127.0.0.1:${smtp.port}` },
    });
    const smtpCheck = (JSON.parse(r.stdout) as { checks: { name: string; status: string }[] }).checks.find(
      (c) => c.name === 'smtp',
    );
    expect(smtpCheck?.status).toBe('ok');
  });
});
