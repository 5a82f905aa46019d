// Which archive a command uses: the settings table's `db` row decides (flag > its environment variable > the profile), else the XDG default.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { archiveTarget } from '../../src/runtime/archive/archive-file.js';
import { setting } from '../../src/runtime/settings-table.js';

const VARIABLE = setting('db').env?.[0] as string;
const file = (t: ReturnType<typeof archiveTarget>) => (t.kind === 'sqlite' ? t.file : t.name);

describe('archiveTarget', () => {
  it('takes --db, then the variable the table names, then the profile; an empty variable counts as none, an empty flag is refused', () => {
    const choice = (db: string | undefined) => ({ db, schema: undefined });
    const env = { HOME: '/home/ana', [VARIABLE]: '/env/r.db' };
    expect(file(archiveTarget(choice('/flag/r.db'), env, '/profile/r.db', false))).toBe('/flag/r.db');
    expect(file(archiveTarget(choice(undefined), env, '/profile/r.db', false))).toBe('/env/r.db');
    // `--db "$DB"` with DB unset: a mistake to say, not the default archive to write to.
    expect(() => archiveTarget(choice(''), env, '/profile/r.db', false)).toThrow('--db needs a value');
    expect(file(archiveTarget(choice(undefined), { HOME: '/home/ana' }, '/profile/r.db', false))).toBe('/profile/r.db');
    expect(file(archiveTarget(choice(undefined), { HOME: '/home/ana', [VARIABLE]: '' }, '/profile/r.db', false))).toBe(
      '/profile/r.db',
    );
  });

  it('else the XDG data folder (~/.local/share without XDG_DATA_HOME); the sandbox its own file beside it', () => {
    const none = { db: undefined, schema: undefined };
    expect(file(archiveTarget(none, { HOME: '/home/ana' }, undefined, false))).toBe(
      path.join('/home/ana', '.local', 'share', 'recall-feed', 'recalls.db'),
    );
    expect(file(archiveTarget(none, { HOME: '/home/ana', XDG_DATA_HOME: '/data' }, '', true))).toBe(
      path.join('/data', 'recall-feed', 'recalls-sandbox.db'),
    );
  });

  it("refuses ':memory:' from any source, with its message", () => {
    expect(() =>
      archiveTarget({ db: undefined, schema: undefined }, { [VARIABLE]: ':memory:' }, undefined, false),
    ).toThrow("':memory:' is no archive: it is gone when the command ends");
  });
});
