// What --db names: a file or a PostgreSQL URL, its schema, and how it is shown without the password.
import { describe, expect, it } from 'vitest';
import { dbTarget, isDbUrl, maskDbUrl } from '../../src/archive/db-target.js';

describe('dbTarget', () => {
  it('takes anything but a postgres:// or postgresql:// URL as a SQLite file', () => {
    expect(dbTarget('recalls.db')).toEqual({ kind: 'sqlite', file: 'recalls.db', name: 'recalls.db' });
    expect(dbTarget('postgres:/x')).toMatchObject({ kind: 'sqlite' });
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
    // pg gets the password and sslmode, not our own `schema` parameter.
    expect(t.kind === 'postgres' && t.url).toBe('postgres://ana:s3cr%40t@db.example:6543/recalls?sslmode=require');
    expect(dbTarget('postgresql://h/d', 'other')).toMatchObject({
      schema: 'other',
      name: 'postgres://h/d schema other',
    });
    expect(dbTarget('postgres://h/d')).toMatchObject({ schema: 'recall_feed', name: 'postgres://h/d' });
    expect(() => dbTarget('postgres://h/d?schema=a;drop')).toThrow(/schema name/);
  });

  it('masks the password however it is written', () => {
    expect(maskDbUrl('postgres://ana:pw@h/d')).toBe('postgres://ana:****@h/d');
    expect(maskDbUrl('postgres://ana:p@ss:w/rd@h:5432/d')).toBe('postgres://ana:****@h:5432/d');
    expect(maskDbUrl('postgresql://ana@h/d?password=pw&sslmode=require')).toBe(
      'postgresql://ana@h/d?password=****&sslmode=require',
    );
    expect(maskDbUrl('postgres://h/d')).toBe('postgres://h/d');
    expect(maskDbUrl('/var/lib/recalls.db')).toBe('/var/lib/recalls.db');
  });
});
