// The SMTP URL among the run's secrets: its user name and password (as written and decoded), never the server, from
// --smtp-url and RECALL_FEED_SMTP_URL alike; the variable is still kept from child processes whole.
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../src/actions/child-env.js';
import { runSecrets, smtpSecrets } from '../../src/runtime/config/run-secrets.js';

describe('smtpSecrets', () => {
  it('the user name and password, as written and decoded; nothing for a URL without a login', () => {
    expect(smtpSecrets('smtps://alerts%40corp:p%40ss-w0rd@mail.example.com:465')).toEqual([
      'alerts%40corp',
      'alerts@corp',
      'p%40ss-w0rd',
      'p@ss-w0rd',
    ]);
    expect(smtpSecrets('smtp://mailer@127.0.0.1:2525')).toEqual(['mailer']);
    expect(smtpSecrets('smtp://localhost:1')).toEqual([]);
    expect(smtpSecrets('smtps://mail.example.com')).toEqual([]);
    expect(smtpSecrets(undefined)).toEqual([]);
    expect(smtpSecrets('')).toEqual([]);
  });

  it('a value that is no URL is masked whole (what in it is a password cannot be told)', () => {
    expect(smtpSecrets('mailer:hunter22 at mail')).toEqual(['mailer:hunter22 at mail']);
  });

  it('not a login that is the host name, which messages print anyway', () => {
    expect(smtpSecrets('smtp://mail.example.com:s3cret@mail.example.com:587')).toEqual(['s3cret']);
  });
});

describe('runSecrets', () => {
  it('--smtp-url and RECALL_FEED_SMTP_URL give their login, not the URL', () => {
    const run = (argv: string[], env: Record<string, string>) => runSecrets({ argv, env, secrets: new Set() });
    expect(run(['digest', '--smtp-url', 'smtp://localhost:1'], {})).toEqual([]);
    expect(run(['digest', '--smtp-url=smtp://bob:hunter22@mail.example.com'], {})).toEqual(['bob', 'hunter22']);
    expect(run(['digest'], { RECALL_FEED_SMTP_URL: 'smtp://localhost:1' })).toEqual([]);
    expect(run(['digest'], { RECALL_FEED_SMTP_URL: 'smtp://bob:hunter22@mail.example.com' })).toEqual([
      'bob',
      'hunter22',
    ]);
  });

  it("a login that is one of the server's labels is not masked (it would hide the server's name); its password is", () => {
    expect(smtpSecrets('smtps://resend:re_secret123@smtp.resend.com:465')).toEqual(['re_secret123']);
    // A password is masked whatever it is, a label of the server too.
    expect(smtpSecrets('smtp://apikey:resend@smtp.resend.com')).toEqual(['apikey', 'resend']);
  });

  it('RECALL_FEED_SMTP_URL, with a login or without, is still no child process business', () => {
    for (const url of ['smtp://localhost:1', 'smtp://bob:hunter22@mail.example.com'])
      expect(childEnv({ RECALL_FEED_SMTP_URL: url, HOME: '/home/u' })).toEqual({ HOME: '/home/u' });
  });
});
