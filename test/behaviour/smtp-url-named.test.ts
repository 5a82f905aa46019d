// An undelivered e-mail (exit 11) names the SMTP server, never its login: only the SMTP URL's user name and password
// are the run's secrets, whether the URL comes from --smtp-url, RECALL_FEED_SMTP_URL or the profile, and whether or
// not it has a login (without one, masking the whole URL used to turn the server into `****`).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

const MAIL = ['--email', 'a@example.test', '--email-from', 'recalls@example.test'];

/** `digest --db <an archive one sync filled> --email …`, the SMTP URL given as `where` says, in a config folder of its own. */
async function digest(where: 'flag' | 'env' | 'profile', smtpUrl: string) {
  const sandbox = await sandboxFor({ recordCount: 5, seed: 3 });
  const db = path.join(tempDir('rf-smtp-named-'), 'live.db');
  const sync = await runMainAgainst(sandbox, ['sync', '--db', db]);
  expect(sync.code).toBe(0);
  const env: Record<string, string> = { RECALL_FEED_CONFIG_DIR: tempDir('rf-config-') };
  if (where === 'profile') {
    const set = await runMain(['config', 'set', 'smtp-url'], { env, stdin: `${smtpUrl}\n` });
    expect(set.code).toBe(0);
  }
  if (where === 'env') env.RECALL_FEED_SMTP_URL = smtpUrl;
  const flag = where === 'flag' ? ['--smtp-url', smtpUrl] : [];
  return runMainAgainst(sandbox, ['digest', '--db', db, ...MAIL, ...flag], { env });
}

describe('exit 11 names the SMTP server', () => {
  for (const where of ['flag', 'env', 'profile'] as const) {
    it(`a URL without a login (${where}): the server is named, nothing masked`, async () => {
      // The server requires a login: without one it refuses the message.
      const smtp = await smtpServer();
      const server = `smtp://127.0.0.1:${smtp.port}`;
      const r = await digest(where, server);
      expect(r.code).toBe(11);
      expect(r.stdout).toBe('');
      const [error, hint] = r.stderr.split('\n');
      expect(error).toMatch(/^error: the digest e-mail to a@example\.test was not delivered: /);
      expect(error).toContain(`${server} `);
      expect(hint).toContain(`hint: check the server (${server}), `);
      expect(r.stderr).not.toContain('****');
      expect(smtp.received).toHaveLength(0);
    });

    it(`a URL with a login (${where}): the server is named, its user and password never`, async () => {
      const smtp = await smtpServer({ refuse: 'mailbox unavailable', user: 'alerts-bot', pass: 'Pa%ss w0rd!' });
      const server = `smtp://127.0.0.1:${smtp.port}`;
      const r = await digest(where, smtp.url);
      expect(r.code).toBe(11);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toContain(`${server} refused the message`);
      expect(r.stderr).toContain(`hint: check the server (${server}), `);
      for (const secret of ['alerts-bot', 'Pa%ss w0rd!', encodeURIComponent('Pa%ss w0rd!')])
        expect(r.stderr).not.toContain(secret);
    });
  }
});
