// `config list` and `config get` print values a hand edit put in the config file with their control characters escaped
// (ESC, BEL, C1 CSI, RLO, line breaks), on a terminal and off one, the masked API key too.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The profile of the fuzz report's reproduction, plus a BEL and a forged line. */
const PROFILE = {
  format: '\x1b[31mRED\u009b2J\u202eX',
  sources: 'a\x1b[2Jb\x07',
  'email-from': 'x\u202e@y',
  'api-key': 'dr_live_\x1b[2Jabcdefg\u202e',
  'base-url': 'https://api.example.com\napi-key=forged',
  // Ordinary values print as they are.
  'page-size': 50,
  timeout: 30,
};

function configDir(): string {
  const dir = tempDir('rf-config-controls-');
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ profiles: { default: PROFILE } }), { mode: 0o600 });
  return dir;
}

/** Any character a terminal acts on or that breaks a line. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('config list and config get with controls in a hand-edited file', () => {
  it.each([true, false])('list, stdout a terminal: %s', async (tty) => {
    const r = await runMain(['config', 'list'], { env: { RECALL_FEED_CONFIG_DIR: configDir() }, stdoutIsTTY: tty });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout.split('\n').sort()).toEqual(
      [
        '',
        'format=\\x1b[31mRED\\x9b2J\\u202eX',
        'sources=a\\x1b[2Jb\\x07',
        'email-from=x\\u202e@y',
        'api-key=dr_live_…efg\\u202e',
        'base-url=https://api.example.com\\u000aapi-key=forged',
        'page-size=50',
        'timeout=30',
      ].sort(),
    );
  });

  it('get, each value on one line with its escapes; --show-secrets too', async () => {
    const dir = configDir();
    const get = async (...args: string[]) => {
      const r = await runMain(['config', 'get', ...args], { env: { RECALL_FEED_CONFIG_DIR: dir }, stdoutIsTTY: true });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(await get('sources')).toBe('a\\x1b[2Jb\\x07\n');
    expect(await get('format')).toBe('\\x1b[31mRED\\x9b2J\\u202eX\n');
    expect(await get('api-key')).toBe('dr_live_…efg\\u202e\n');
    expect(await get('api-key', '--show-secrets')).toBe('dr_live_\\x1b[2Jabcdefg\\u202e\n');
    expect(await get('base-url')).toBe('https://api.example.com\\u000aapi-key=forged\n');
    expect(await get('page-size')).toBe('50\n');
  });
});
