// A PostgreSQL archive from before version 7: one that holds a recall with a lone surrogate (JSON "\ud800", which jsonb
// refuses) upgrades, and recalls_view then reads every row; one indexed with the earlier tokens is indexed again as
// FTS5 tokenizes, so --search finds what the SQLite engine finds.
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/archive/postgres/schema.js';
import { adminQuery, freshDatabase, pgAdminUrl } from '../helpers/postgres.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';

/** recalls_view as version 4 made it (it cast only a NUL), from that migration's own text. */
function viewOfV4(): string {
  const view = /CREATE OR REPLACE VIEW[\s\S]*?AS x;/.exec(MIGRATIONS[3]!('recall_feed'))?.[0];
  if (view === undefined) throw new Error('version 4 makes no recalls_view');
  return view;
}

const STATS = ['severity', 'status', 'risk', 'jurisdiction', 'category', 'brand', 'country'];

/** Each recall's brand as recalls_view reads it; a view that cannot read a row fails the whole query. */
const VIEW_BRANDS = 'SELECT id, product_brand FROM recall_feed.recalls_view ORDER BY id';

describe.skipIf(!pgAdminUrl())('PostgreSQL: upgrading an archive to version 7', () => {
  async function archived(record: Record<string, unknown>) {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 5, clock: () => FIXED_START });
    const [made] = sandbox.addRecords([record]);
    const db = await freshDatabase('rf_surrogate');
    const sync = await runMainAgainst(sandbox, ['sync', '--db', db.url, '-q']);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    return { sandbox, db, id: made!.id };
  }

  const version = async (name: string) =>
    (
      await adminQuery<{ value: string }>(
        "SELECT value FROM recall_feed.archive_meta WHERE key = 'schema_version'",
        [],
        name,
      )
    )[0]?.value;

  it('from version 6 (its title holds one): version 7 makes recalls_view read every row', async () => {
    const { sandbox, db, id } = await archived({ alert_title: 'Lone \ud800 title' });
    await adminQuery(
      `${viewOfV4()} UPDATE recall_feed.archive_meta SET value = '6' WHERE key = 'schema_version';`,
      [],
      db.name,
    );
    // As version 6 left it: the view fails for the whole table.
    await expect(adminQuery(VIEW_BRANDS, [], db.name)).rejects.toThrow(/invalid input syntax for type json/);

    const sync = await runMainAgainst(sandbox, ['sync', '--db', db.url, '-q']);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    expect(await version(db.name)).toBe(String(MIGRATIONS.length));
    const titles = await adminQuery<{ id: string; alert_title: string }>(
      `SELECT id, alert_title FROM recall_feed.recalls_view WHERE id = ${id}`,
      [],
      db.name,
    );
    expect(titles).toEqual([{ id: String(id), alert_title: 'Lone \uFFFD title' }]);
    expect((await adminQuery(VIEW_BRANDS, [], db.name)).length).toBe(
      Number((await adminQuery<{ n: string }>('SELECT count(*) AS n FROM recall_feed.recalls', [], db.name))[0]!.n),
    );
  });

  it('from version 4 (its brand holds one): the stat_* columns are filled, and stats counts it', async () => {
    const { sandbox, db } = await archived({ product_brand: 'Sur\ud800rogate' });
    // As version 4 left it: no stat_* columns, no recall_stats, the view of version 4.
    await adminQuery(
      `DROP TABLE recall_feed.recall_stats;
       ALTER TABLE recall_feed.recalls ${STATS.map((c) => `DROP COLUMN stat_${c}`).join(', ')};
       ${viewOfV4()}
       UPDATE recall_feed.archive_meta SET value = '4' WHERE key = 'schema_version';`,
      [],
      db.name,
    );

    const sync = await runMainAgainst(sandbox, ['sync', '--db', db.url, '-q']);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    expect(await version(db.name)).toBe(String(MIGRATIONS.length));
    const stats = await runMain(['stats', '--by', 'brand', '-f', 'json', '--db', db.url]);
    expect(stats.code).toBe(0);
    expect((JSON.parse(stats.stdout) as { brand: unknown[] }).brand).toContainEqual({
      value: 'Sur\uFFFDrogate',
      count: 1,
    });
    expect((await adminQuery(VIEW_BRANDS, [], db.name)).map((r) => r.product_brand)).toContain('Sur\uFFFDrogate');
  });
  it('indexes again the recalls whose tokens changed (and only those), so --search finds them as on SQLite', async () => {
    const { sandbox, db, id } = await archived({ product_brand: 'Ёлочка', alert_title: 'Οδυσσεύς' });
    const latin = sandbox.addRecords([{ alert_title: 'Crème brûlée' }])[0]!.id;
    expect((await runMainAgainst(sandbox, ['sync', '--db', db.url, '-q'])).code).toBe(0);
    const vectors = 'SELECT id, search::text AS search, xmin::text AS xmin FROM recall_feed.recalls ORDER BY id';
    const indexed = await adminQuery<{ id: string; search: string; xmin: string }>(vectors, [], db.name);
    // As an earlier version indexed that recall (ё and the tonos folded away, the final sigma kept), at version 6.
    await adminQuery(
      `UPDATE recall_feed.recalls SET search = $$'елочка':1 'οδυσσευς':2$$::tsvector WHERE id = ${id};
       ${viewOfV4()} UPDATE recall_feed.archive_meta SET value = '6' WHERE key = 'schema_version';`,
      [],
      db.name,
    );
    const search = async (word: string) => {
      const r = await runMain(['query', '--search', word, '-f', 'csv', '--columns', 'id', '--db', db.url]);
      expect(r.code).toBe(0);
      return r.stdout.split('\n').slice(1).filter(Boolean).map(Number);
    };

    const sync = await runMainAgainst(sandbox, ['sync', '--db', db.url, '-q']);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    expect(await version(db.name)).toBe(String(MIGRATIONS.length));
    // (The sandbox's own records hold Russian words too: only this recall's presence is checked.)
    expect(await search('ёлочка')).toContain(id);
    expect(await search('ΟΔΥΣΣΕΎΣ')).toContain(id);
    expect(await search('елочка')).not.toContain(id);
    const after = await adminQuery<{ id: string; search: string; xmin: string }>(vectors, [], db.name);
    expect(after.map((r) => [r.id, r.search])).toEqual(indexed.map((r) => [r.id, r.search]));
    // Every other row, the Latin one too, kept its row version: nothing was written where nothing changed.
    const written = after.filter((r, i) => r.xmin !== indexed[i]!.xmin).map((r) => Number(r.id));
    expect(written).toEqual([id]);
    expect(after.map((r) => Number(r.id))).toContain(latin);
  });
});
