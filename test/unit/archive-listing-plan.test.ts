// How SQLite reads a limited search: through the sort column's index, meeting the hits in order and stopping at the
// limit, never reading every hit's row to sort them (a million recalls made that 190 ms for 20 rows); and without that
// index (an archive edited by hand), still the right rows.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { listingSql } from '../../src/archive/features/selection.js';
import { sqliteDialect } from '../../src/archive/sqlite/dialect.js';
import { SqliteStore } from '../../src/archive/sqlite/store.js';
import type { ArchiveListing } from '../../src/archive/store.js';
import { all, sampleRecords, tempFolder } from '../helpers/archive.js';

async function archiveFile(): Promise<string> {
  const file = tempFolder().file('plan.db');
  const archive = await SqliteStore.open(file, { create: true });
  const run = await archive.beginRun({}, Date.now());
  await archive.upsertPage(sampleRecords(200), run, Date.now);
  await archive.close();
  return file;
}

function plan(file: string, q: ArchiveListing): string {
  const { sql, params } = listingSql(sqliteDialect, q);
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  } finally {
    db.close();
  }
}

describe('a limited search on SQLite', () => {
  it('scans the sort column’s index in order, for each sort field and direction, with a --grep limit too', async () => {
    const file = await archiveFile();
    const cases: [ArchiveListing, string][] = [
      [{ search: 'fire', limit: 20 }, 'recalls_published'],
      [{ search: 'fire', limit: 20, order: 'asc' }, 'recalls_published'],
      [{ search: 'fire', limit: 5, sortBy: 'updated_at' }, 'recalls_updated'],
      [{ search: 'fire', limit: 5, sortBy: 'created_in_db_at', order: 'asc' }, 'recalls_created'],
      [{ search: 'fire', limit: 5, filter: { grep: 'e' }, sources: ['uk_opss'] }, 'recalls_published'],
    ];
    for (const [q, index] of cases) {
      const p = plan(file, q);
      expect(p, JSON.stringify(q)).toContain(`SCAN r USING INDEX ${index}`);
      expect(p, JSON.stringify(q)).not.toContain('TEMP B-TREE FOR ORDER BY');
    }
  });

  it('leaves a search without a limit, and a limited listing without a search, to the planner', async () => {
    const file = await archiveFile();
    expect(listingSql(sqliteDialect, { search: 'fire' }).sql).toContain(' r.id IN (SELECT rowid FROM recalls_fts');
    expect(plan(file, { search: 'fire' })).toContain('SEARCH r USING INTEGER PRIMARY KEY');
    // Without a search the planner already walks the index for a limited listing.
    expect(plan(file, { limit: 20 })).toContain('SCAN r USING INDEX recalls_published');
  });

  it('answers from another index when the sort column’s is gone (an archive edited by hand)', async () => {
    const file = await archiveFile();
    const before = await SqliteStore.open(file, { create: false });
    const want = (await all(before.records({ search: 'fire' }))).map((r) => r.id);
    await before.close();
    expect(want.length).toBeGreaterThan(3);
    const db = new Database(file);
    db.exec('DROP INDEX recalls_published');
    db.close();
    const archive = await SqliteStore.open(file, { create: false });
    try {
      const got = (await all(archive.records({ search: 'fire', limit: 3 }))).map((r) => r.id);
      expect(got).toEqual(want.slice(0, 3));
    } finally {
      await archive.close();
    }
  });
});
