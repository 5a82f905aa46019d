// The e-mail flags and settings: checked before anything is read or sent; the SMTP URL a secret, masked, from flag > env > profile.
import { describe, expect, it } from 'vitest';
import { parseSmtpUrl } from '../../src/actions/email-smtp.js';
import { alertMail } from '../../src/actions/email-message.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/in-process.js';

const SMTP = 'smtps://mailer:p%40ss-W0rd@mail.example.com:465';

describe('SMTP URL', () => {
  it('reads smtp and smtps URLs; plain smtp to another machine must use STARTTLS; shows only the server', () => {
    expect(parseSmtpUrl(SMTP)).toEqual({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      requireTls: false,
      user: 'mailer',
      pass: 'p@ss-W0rd',
      shown: 'smtps://mail.example.com:465',
    });
    expect(parseSmtpUrl('smtp://u:p@mail.example.com')).toMatchObject({ port: 587, secure: false, requireTls: true });
    expect(parseSmtpUrl('smtp://127.0.0.1:2525')).toMatchObject({ requireTls: false, user: undefined });
    expect(() => parseSmtpUrl('https://mail.example.com')).toThrow('must start with smtp:// or smtps://');
  });
});

describe('config set smtp-url', () => {
  it('reads it from stdin, and get and list show only the server', async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir() };
    const set = await runMain(['config', 'set', 'smtp-url'], { env, stdin: `${SMTP}\n` });
    expect(set.code).toBe(0);
    expect(set.stderr).not.toContain('W0rd');
    await runMain(['config', 'set', 'email-from', 'recalls@example.com'], { env });
    const list = await runMain(['config', 'list'], { env });
    expect(list.stdout).toBe('smtp-url=smtps://mail.example.com:465\nemail-from=recalls@example.com\n');
    const get = await runMain(['config', 'get', 'smtp-url'], { env });
    expect(get.stdout).toBe('smtps://mail.example.com:465\n');
    const shown = await runMain(['config', 'get', 'smtp-url', '--show-secrets'], { env });
    expect(shown.stdout).toBe(`${SMTP}\n`);
    const bad = await runMain(['config', 'set', 'smtp-url'], { env, stdin: 'http://user:hunter2@mail.example.com\n' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('hunter2');
  });
});

describe('--email flags', () => {
  const cases: [string[], Record<string, string>, string][] = [
    [['feed', '--watch', '--email', 'a@example.com'], {}, 'error: --email needs an SMTP server'],
    [
      ['feed', '--watch', '--email', 'a@example.com', '--smtp-url', 'smtp://127.0.0.1:25'],
      {},
      'error: --email needs a sender address',
    ],
    [
      ['feed', '--watch', '--email', 'not-an-address', '--email-from', 'x@example.com'],
      { RECALL_FEED_SMTP_URL: SMTP },
      "error: --email: 'not-an-address' is not an e-mail address",
    ],
    [
      ['feed', '--email', 'a@example.com', '--email-from', 'x@example.com'],
      { RECALL_FEED_SMTP_URL: SMTP },
      'error: --email acts on new recalls: it works with --watch or --state',
    ],
    [['feed', '--watch', '--smtp-url', SMTP], {}, 'error: --smtp-url works with --email'],
    [['match', '--catalog', 'x.csv', '--email', 'a@example.com'], {}, 'error: --email works with match --watch'],
    [
      ['digest', '--email', 'a@example.com', '--email-from', 'x@example.com', '--smtp-url', 'smtp:/'],
      {},
      'error: the SMTP address names no server',
    ],
  ];
  it.each(cases)('%j is refused before any request', async (args, env, message) => {
    const r = await runMain(['--api-key', 'dr_test_x', '--base-url', 'http://127.0.0.1:9', ...args], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(message);
    expect(r.stderr).not.toContain('W0rd');
  });
});

describe('alert e-mail', () => {
  it('says the count and the worst severity, worst first, with hostile text escaped in HTML', () => {
    const at = Date.parse('2026-11-24T09:00:00Z');
    const mail = alertMail(
      [
        { id: 1, alert_title: 'Low one', risk_severity: 'low' },
        {
          id: 2,
          alert_title: '<img src=x onerror=alert(1)>',
          risk_severity: 'serious',
          source_url: 'javascript:alert(1)',
        },
        { id: 3, alert_title: 'Serious two', risk_severity: 'serious', source_url: 'https://example.gov/n/3' },
      ],
      'recalls',
      at,
    );
    expect(mail.subject).toBe('Recalls 24 Nov: 3 new (2 serious)');
    expect(mail.text.indexOf('Serious two')).toBeLessThan(mail.text.indexOf('Low one'));
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.html).toContain('<a href="https://example.gov/n/3">Serious two</a>');
  });
});
