// The archive's password among the run's secrets: every form of it, except a password that is the URL's user,
// database or host name (printed as such in every message naming the archive, so masking it only garbles them).
import { describe, expect, it } from 'vitest';
import { dbSecrets, runSecrets } from '../../src/runtime/config/run-secrets.js';

describe('dbSecrets', () => {
  it('the password as written and decoded, in the user info or ?password=', () => {
    expect(dbSecrets('postgres://ana:p%40ss-w0rd@db.example:5432/recalls')).toEqual(['p%40ss-w0rd', 'p@ss-w0rd']);
    expect(dbSecrets('postgres://ana@db.example/recalls?password=s3cret')).toEqual(['s3cret']);
    expect(dbSecrets('recalls.db')).toEqual([]);
  });

  it('not a password equal to the user, database or host name, however the URL gives them', () => {
    for (const url of [
      'postgres://postgres:postgres@localhost/postgres',
      'postgres://recall:recall@localhost:5439/recall',
      'postgres://ana:recalls@db.example/recalls',
      'postgres://ana:localhost@localhost/recalls',
      'postgres://ana:db.example@db.example/recalls',
      'postgres://%61na:ana@db.example/recalls',
      'postgres://ana:%61na@db.example/recalls',
      'postgres://db.example/recalls?user=ana&password=ana',
      'postgres://ana@db.example/recalls?password=recalls',
      'postgres://ana:other.example@db.example/recalls?host=other.example',
    ])
      expect(dbSecrets(url), url).toEqual([]);
  });

  it('the run: --db and RECALL_FEED_DB give only real passwords; the others stay', () => {
    const argv = ['doctor', '--db', 'postgres://postgres:postgres@localhost/postgres', '--api-key', 'dr_live_key'];
    expect(
      runSecrets({ argv, env: { RECALL_FEED_DB: 'postgres://recall:recall@h/recall' }, secrets: new Set() }),
    ).toEqual(['dr_live_key']);
    const env = { RECALL_FEED_DB: 'postgres://recall:hunter22@h/recall' };
    expect(runSecrets({ argv: ['doctor'], env, secrets: new Set() })).toEqual(['hunter22']);
  });
});
