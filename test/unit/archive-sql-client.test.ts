// The dialect layer's clients: placeholders numbered for PostgreSQL, SQLite's statement cache and transactions.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { selection } from '../../src/archive/features/selection.js';
import { numbered } from '../../src/archive/postgres/client.js';
import { postgresDialect } from '../../src/archive/postgres/dialect.js';
import { SqliteClient } from '../../src/archive/sqlite/client.js';
import { sqliteDialect } from '../../src/archive/sqlite/dialect.js';
import { tempFolder } from '../helpers/archive.js';

function table(file: string): SqliteClient {
  const db = new Database(file, { timeout: 5_000 });
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)');
  return new SqliteClient(db);
}

describe('placeholders on PostgreSQL', () => {
  it('numbers each ? in order, and leaves one inside a string or a quoted name alone', () => {
    const sql = `SELECT '?' AS q, "a?b" FROM t WHERE a = ? AND b IN (?, ?) AND c = 'it''s ?' AND d = ?`;
    const out = numbered(sql);
    expect(out.match(/\$\d+/g)).toEqual(['$1', '$2', '$3', '$4']);
    // Everything but the four placeholders is as it was.
    expect(out.replace(/\$\d+/g, '?')).toBe(sql);
  });
});

describe('a selection in either dialect', () => {
  it('has as many placeholders as parameters, and the same residual filter', () => {
    const q = { sinceUs: 1, sources: ['a', 'b'], search: 'cheese mill*', filter: { severity: ['serious'] } };
    for (const d of [sqliteDialect, postgresDialect('recall_feed')]) {
      const sel = selection(d, q);
      expect(sel.where.split('?').length - 1).toBe(sel.params.length);
    }
  });

  it('selects nothing for a search without a word, on both', () => {
    expect(selection(sqliteDialect, { search: ' * ' }).where).toBe(sqliteDialect.false);
    const pg = postgresDialect('s');
    expect(selection(pg, { search: ' * ' }).where).toBe(pg.false);
  });
});

describe('the SQLite client', () => {
  it('prepares a statement once however often it runs', async () => {
    const f = tempFolder();
    const client = table(f.file('a.db'));
    const prepared: string[] = [];
    const prepare = client.db.prepare.bind(client.db);
    client.db.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof client.db.prepare;
    for (let i = 0; i < 5; i++) await client.run('INSERT INTO t (v) VALUES (?)', [`v${i}`]);
    expect(await client.get<{ n: number }>('SELECT count(*) AS n FROM t')).toEqual({ n: 5 });
    expect(prepared).toEqual(['INSERT INTO t (v) VALUES (?)', 'SELECT count(*) AS n FROM t']);
    client.db.close();
  });

  it('rolls a failed transaction back whole, and a nested one joins it', async () => {
    const f = tempFolder();
    const client = table(f.file('b.db'));
    const failing = client.transaction('write', async () => {
      await client.run("INSERT INTO t (v) VALUES ('kept?')");
      await client.transaction('write', () => client.run("INSERT INTO t (v) VALUES ('inner')"));
      throw new Error('stop');
    });
    await expect(failing).rejects.toThrow('stop');
    expect(client.db.inTransaction).toBe(false);
    expect(await client.all('SELECT v FROM t')).toEqual([]);
    client.db.close();
  });

  it('a second connection of this process waits for the first one’s write transaction, without blocking it', async () => {
    const f = tempFolder();
    const one = table(f.file('c.db'));
    const two = table(f.file('c.db'));
    const order: string[] = [];
    const first = one.transaction('write', async () => {
      for (let i = 0; i < 3; i++) {
        await one.run('INSERT INTO t (v) VALUES (?)', [`one ${i}`]);
        // Yields to the other connection's pending call between statements.
        await new Promise((r) => setImmediate(r));
      }
      order.push('one committed');
    });
    const second = two.transaction('write', async () => {
      const n = await two.get<{ n: number }>('SELECT count(*) AS n FROM t');
      order.push(`two saw ${n?.n}`);
      await two.run("INSERT INTO t (v) VALUES ('two')");
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['one committed', 'two saw 3']);
    one.db.close();
    two.db.close();
  });
});
