// A secret in a hand-edited config file holding a lone surrogate ("\ud800"): masking the run's secrets while an error is
// reported never throws, so the error keeps its own one-line message and exit code (no stack trace, no exit 1).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../src/api/errors-mask.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closedPort } from '../helpers/test-proxy.js';

const GOOD_KEY = 'dr_test_0123456789abcdef0123456789abcdef01234567';

/** A config folder whose default profile holds `values`, written as a hand edit would (JSON escapes kept as typed). */
function configWith(json: string): string {
  const dir = tempDir('rf-surrogate-');
  writeFileSync(path.join(dir, 'config.json'), `{"profiles":{"default":${json}}}`, { mode: 0o600 });
  return dir;
}

describe('a lone surrogate in a config secret', () => {
  it('health against a closed port: its own one-line error and exit 6, with the key and a webhook holding one', async () => {
    const dir = configWith(
      '{"api-key":"dr_live_abc\\ud800def","webhook":"https://hooks.example.com/services/T1/\\ud800tok3ntok3n"}',
    );
    const port = await closedPort();
    const r = await runMain(['health', '--base-url', `http://127.0.0.1:${port}`], {
      env: { RECALL_FEED_CONFIG_DIR: dir },
    });
    expect(r.stderr).toBe(`error: connection refused by 127.0.0.1:${port}\n`);
    expect(r.code).toBe(6);
  });

  it('feed with that key: refused before any request as a malformed key, exit 3', async () => {
    const dir = configWith('{"api-key":"dr_live_abc\\ud800def"}');
    const port = await closedPort();
    const r = await runMain(['feed', '--base-url', `http://127.0.0.1:${port}`, '-f', 'jsonl'], {
      env: { RECALL_FEED_CONFIG_DIR: dir, RECALL_FEED_API_KEY: undefined },
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^error: [^\n]*\nhint: [^\n]*\n$/);
    expect(r.stderr).not.toMatch(/URIError|    at /);
  });

  it('feed with a monitor URL holding one, and a good key: the connection error, exit 6', async () => {
    const port = await closedPort();
    const dir = configWith(`{"api-key":"${GOOD_KEY}","monitor":"http://127.0.0.1:${port}/ping/\\udc00abcdef0123"}`);
    const r = await runMain(['feed', '--base-url', `http://127.0.0.1:${port}`, '-f', 'jsonl', '--retries', '0'], {
      env: { RECALL_FEED_CONFIG_DIR: dir, RECALL_FEED_API_KEY: undefined },
    });
    expect(r.code, r.stderr).toBe(6);
    // The monitor's pings are warned about (its address unreachable too); the run's error is the API's.
    expect(r.stderr).toMatch(new RegExp(`^error: connection refused by 127\\.0\\.0\\.1:${port}$`, 'm'));
    expect(r.stderr).not.toMatch(/URIError|    at /);
  });
});

describe('maskSecrets with a secret holding a lone surrogate', () => {
  it('masks the secret and its percent-encoded form (U+FFFD in place of the half), and never throws', () => {
    const secret = 'hunter2\ud800hunter2';
    expect(maskSecrets('refused hunter2\ud800hunter2 and hunter2%EF%BF%BDhunter2', [secret])).toBe(
      'refused **** and ****',
    );
    expect(maskSecrets('no secret here', ['\udc00\udc00\udc00\udc00'])).toBe('no secret here');
  });
});
