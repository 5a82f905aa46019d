// maskSecrets: every form of a secret in server text is masked (whole, percent-encoded, a URL's password and token path).
import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../src/api/errors-mask.js';

describe('maskSecrets', () => {
  it('masks a long key recognisably, short secrets as ****, and leaves other text alone', () => {
    const key = 'dr_live_abcdefghijklmnopqrstuvwxyz';
    expect(maskSecrets(`bad key ${key}!`, [key])).toBe('bad key dr_live_…wxyz!');
    expect(maskSecrets('password hunter22 refused', ['hunter22'])).toBe('password **** refused');
    expect(maskSecrets('nothing to see', [key, undefined, ''])).toBe('nothing to see');
  });

  it('masks a URL whole, its password alone, percent-encoded forms and a webhook token path', () => {
    const db = 'postgres://app:p%40ss-w0rd@db.example:5432/recalls';
    expect(maskSecrets(`cannot connect to ${db}`, [db])).toBe('cannot connect to postgres…alls');
    expect(maskSecrets('auth failed for p@ss-w0rd', [db])).toBe('auth failed for ****');
    const hook = 'https://hooks.example.com/services/T1/B2/tok3ntok3ntok3n';
    expect(maskSecrets('no such hook: /services/T1/B2/tok3ntok3ntok3n', [hook])).toBe('no such hook: /service…ok3n');
    expect(maskSecrets(`url=${encodeURIComponent(hook)}`, [hook])).not.toContain('tok3ntok3ntok3n');
    // Values shorter than 4 characters are never searched for.
    expect(maskSecrets('a b c', ['b'])).toBe('a b c');
  });

  it('masks a password holding a % of its own (no escape), and decodes the escapes beside it', () => {
    const smtp = 'smtp://alice:S3cret%zzPassw0rd@127.0.0.1:2526';
    expect(maskSecrets('535 auth failed for S3cret%zzPassw0rd', [smtp])).toBe('535 auth failed for ****');
    const mixed = 'smtp://alice:Pa%ss%40home@127.0.0.1:2526';
    expect(maskSecrets('rejected Pa%ss@home', [mixed])).toBe('rejected ****');
  });

  it('a secret under 12 characters only as a whole word, never inside a longer one; a longer one everywhere', () => {
    // 'data' (a password that is a common word): the word alone is masked, 'database' and 'metadata' are words of their own.
    expect(maskSecrets('database recalls: got data, (data) and "data"; metadata', ['data'])).toBe(
      'database recalls: got ****, (****) and "****"; metadata',
    );
    expect(maskSecrets('https://api.deeprecall.io not reached; recall_feed; recall', ['recall'])).toBe(
      'https://api.deeprecall.io not reached; recall_feed; ****',
    );
    // Its own edges decide: a form that begins or ends with punctuation is masked wherever that edge touches a word.
    expect(maskSecrets('got x-s3cr#x and -s3cr#', ['-s3cr#'])).toBe('got x****x and ****');
    expect(maskSecrets('password=hunter22;user=hunter22x', ['hunter22'])).toBe('password=****;user=hunter22x');
    // 11 characters: whole words only; 12: everywhere, as an API key or a webhook token is.
    expect(maskSecrets('xhunter22abcx', ['hunter22abc'])).toBe('xhunter22abcx');
    expect(maskSecrets('xhunter22abcdx', ['hunter22abcd'])).toBe('x****x');
    const key = 'dr_live_abcdefghijklmnopqrstuvwxyz';
    expect(maskSecrets(`token${key}trailing`, [key])).toBe('tokendr_live_…wxyztrailing');
    // A short password's URL-encoded form too: whole words only.
    expect(maskSecrets('sent p%40ss1, not p%40ss12', ['p@ss1'])).toBe('sent ****, not p%40ss12');
  });
});
