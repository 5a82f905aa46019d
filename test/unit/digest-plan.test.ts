// digest's flags: refused before the archive is read or anything is sent, each with its own message.
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('digest flags', () => {
  const cases: [string[], string][] = [
    [['-f', 'csv'], "error: --format must be one of text, markdown, html, json, not 'csv'"],
    [['--since', '1h', '--until', '2h'], 'error: --until 2h is not after --since 1h: the window would be empty'],
    [['--since', '2099-01-01'], 'error: --since 2099-01-01 is not before now: the period would be empty'],
    [
      ['--since', 'yesterday'],
      "error: --since must be a duration such as 36h or 7d, or an ISO date or date-time, not 'yesterday'",
    ],
    [['--map', 'gtin=EAN'], 'error: --map works with --catalog'],
    [['--webhook-format', 'teams'], 'error: --webhook-format works with --webhook'],
    [
      ['--webhook', 'https://hooks.example.com/x', '--webhook-format', 'xml'],
      "error: --webhook-format must be one of json, slack, teams, not 'xml'",
    ],
    [
      ['--webhook', 'http://hooks.example.com/x'],
      'error: refusing to send recalls to a plain http webhook on hooks.example.com: use https',
    ],
    [['--webhook'], 'error: --webhook needs a URL'],
    [['--email', 'a@example.com'], 'error: --email needs an SMTP server'],
  ];
  it.each(cases)('%j', async (args, message) => {
    // The archive does not exist: a flag error must come first.
    const r = await runMain(['digest', '--db', `${tempDir()}/none.db`, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(message);
    expect(r.stdout).toBe('');
  });

  it('a missing archive is exit 2 with a hint to sync', async () => {
    const r = await runMain(['digest', '--db', `${tempDir()}/none.db`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sync');
  });
});
