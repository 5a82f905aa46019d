// What --db names: a file or a PostgreSQL URL, its schema, and how it is shown without the password.
import { describe, expect, it } from 'vitest';
import { dbTarget, isDbUrl, maskDbUrl } from '../../src/archive/db-target.js';

describe('dbTarget', () => {
  it('takes anything but a postgres:// or postgresql:// URL as a SQLite file', () => {
    expect(dbTarget('recalls.db')).toEqual({ kind: 'sqlite', file: 'recalls.db', name: 'recalls.db' });
    expect(dbTarget('C:\\data\\recalls.db')).toMatchObject({ kind: 'sqlite' });
    expect(dbTarget('./odd:name.db')).toMatchObject({ kind: 'sqlite', file: './odd:name.db' });
    expect(isDbUrl('POSTGRESQL://h/d')).toBe(true);
    expect(() => dbTarget('a.db', 'team')).toThrow(/--db-schema applies to a PostgreSQL URL/);
  });

  it('reads host, database and schema (?schema= or the flag), and keeps the password out of the name', () => {
    const t = dbTarget('postgres://ana:s3cr%40t@db.example:6543/recalls?schema=team&sslmode=require');
    expect(t).toMatchObject({
      kind: 'postgres',
      schema: 'team',
      host: 'db.example',
      database: 'recalls',
      name: 'postgres://ana@db.example:6543/recalls schema team',
    });
    // pg gets the password and sslmode (require as the verify-full pg has always made of it, so it does not warn),
    // not our own `schema` parameter.
    expect(t.kind === 'postgres' && t.url).toBe('postgres://ana:s3cr%40t@db.example:6543/recalls?sslmode=verify-full');
    expect(dbTarget('postgresql://h/d', 'other')).toMatchObject({
      schema: 'other',
      name: 'postgres://h/d schema other',
    });
    expect(dbTarget('postgres://h/d')).toMatchObject({ schema: 'recall_feed', name: 'postgres://h/d' });
    expect(() => dbTarget('postgres://h/d?schema=a;drop')).toThrow(/schema name/);
  });

  it('refuses a value that looks like a URL but is not postgres://, masked, and trims white space', () => {
    for (const bad of ['pg://ana:pw@h/d', 'postgres:/ana:pw@h/d', 'postgres:ana:pw@h/d', 'postgress://ana:pw@h/d']) {
      expect(() => dbTarget(bad)).toThrow(/looks like a URL, but only postgres:\/\/ URLs name a database/);
      expect(() => dbTarget(bad)).not.toThrow(/pw/);
      expect(() => dbTarget(bad)).toThrow(/ana:\*\*\*\*@h/);
    }
    for (const bad of ['postgres//ana:pw@h/d', './x/postgres://ana:pw@h/d']) {
      expect(() => dbTarget(bad)).toThrow(/looks like a URL/);
      expect(() => dbTarget(bad)).toThrow(/\/\/ana:\*\*\*\*@h/);
    }
    expect(dbTarget('postgres/recalls.db')).toMatchObject({ kind: 'sqlite' });
    expect(dbTarget(' postgres://ana:pw@h/d\n')).toMatchObject({ kind: 'postgres', host: 'h', database: 'd' });
    expect(dbTarget('  recalls.db ')).toMatchObject({ kind: 'sqlite', file: 'recalls.db' });
  });

  it('takes an empty host (postgres://user@/db) as pg does: PGHOST, else localhost', () => {
    const t = dbTarget('postgres://ana:pw@/recalls?schema=team');
    expect(t).toMatchObject({ kind: 'postgres', database: 'recalls', name: 'postgres://ana@/recalls schema team' });
    expect(t.kind === 'postgres' && t.url).toBe('postgres://ana:pw@/recalls');
    expect(dbTarget('postgres://ana@:6543/d')).toMatchObject({ name: 'postgres://ana@:6543/d' });
    expect(
      dbTarget('postgres://ana@:6543/d').kind === 'postgres' &&
        (dbTarget('postgres://ana@:6543/d') as { url: string }).url,
    ).toBe('postgres://ana@:6543/d');
  });

  it('leaves libpq meanings alone with uselibpqcompat=true', () => {
    const t = dbTarget('postgres://h/d?uselibpqcompat=true&sslmode=require');
    expect(t.kind === 'postgres' && t.url).toBe('postgres://h/d?uselibpqcompat=true&sslmode=require');
  });

  it('masks the password however it is written', () => {
    expect(maskDbUrl('postgres://ana:pw@h/d')).toBe('postgres://ana:****@h/d');
    expect(maskDbUrl('postgres://ana:p@ss:w/rd@h:5432/d')).toBe('postgres://ana:****@h:5432/d');
    expect(maskDbUrl('postgresql://ana@h/d?password=pw&sslmode=require')).toBe(
      'postgresql://ana@h/d?password=****&sslmode=require',
    );
    expect(maskDbUrl('postgres://h/d')).toBe('postgres://h/d');
    expect(maskDbUrl('/var/lib/recalls.db')).toBe('/var/lib/recalls.db');
    expect(maskDbUrl('pg://ana:pw@h/d')).toBe('pg://ana:****@h/d');
    expect(maskDbUrl('postgres:/ana:pw@h/d')).toBe('postgres:/ana:****@h/d');
  });
});
