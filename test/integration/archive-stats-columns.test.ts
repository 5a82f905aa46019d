// Stats from the stat_* columns, both engines: the counts the synced records give, with raw unread; an archive from before the columns is counted read-only and migrated by the next writer.
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive, STATS_FIELDS, type StatsField } from '../../src/archive/index.js';
import { ms, sampleRecords, tempFolder } from '../helpers/archive.js';
import { ENGINES, freshDatabase } from '../helpers/postgres.js';

const T0 = Date.parse('2026-11-20T06:00:00.000Z');
/** Every field stats counts by: the input, not the expected answer. */
const ALL = STATS_FIELDS;
/** The record field of each stats field, written out here rather than taken from the code under test. */
const FIELDS = {
  severity: 'risk_severity',
  status: 'alert_status',
  risk: 'risk_types',
  jurisdiction: 'geo_jurisdictions',
  category: 'product_category',
  brand: 'product_brand',
  country: 'country_of_origin',
} as const;
const LISTS = new Set(['risk', 'jurisdiction']);

/** Generated records plus the odd shapes stats must count as before: fields missing, null, a list as a scalar. */
function records(): SpecRecall[] {
  const list = sampleRecords(240, 11);
  const loose = list as unknown as Record<string, unknown>[];
  delete loose[0]?.risk_severity;
  delete loose[1]?.geo_jurisdictions;
  (loose[2] as Record<string, unknown>).product_brand = null;
  (loose[3] as Record<string, unknown>).risk_types = 'chemical';
  (loose[4] as Record<string, unknown>).geo_jurisdictions = null;
  delete loose[5]?.product_category;
  return list;
}

/** SQLite's order of ties: NULL first, then text by its UTF-8 bytes. */
function byCountThenValue(a: { value: unknown; count: number }, b: { value: unknown; count: number }): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.value === null || b.value === null) return a.value === null ? (b.value === null ? 0 : -1) : 1;
  return Buffer.compare(Buffer.from(String(a.value)), Buffer.from(String(b.value)));
}

function counted(values: unknown[]): { value: unknown; count: number }[] {
  const m = new Map<unknown, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m].map(([value, count]) => ({ value, count })).sort(byCountThenValue);
}

/** What stats should say, from the records themselves: a missing scalar counts as null, a missing list not at all. */
function expected(list: SpecRecall[]): Record<StatsField, { value: unknown; count: number }[]> {
  const out = {} as Record<StatsField, { value: unknown; count: number }[]>;
  const day = (r: SpecRecall) => new Date(ms(r.published_at)).toISOString().slice(0, 10);
  const hour = (r: SpecRecall) => `${new Date(ms(r.published_at)).toISOString().slice(0, 13)}:00`;
  out.source = counted(list.map((r) => r.data_source));
  out.day = counted(list.map(day));
  out.hour = counted(list.map(hour));
  for (const [name, field] of Object.entries(FIELDS)) {
    const values = list.flatMap((r) => {
      const v = (r as unknown as Record<string, unknown>)[field];
      if (!LISTS.has(name)) return [v === undefined ? null : v];
      if (v === undefined) return [];
      return Array.isArray(v) ? v : [v];
    });
    out[name as StatsField] = counted(values);
  }
  return out;
}

/** Runs SQL on the archive behind the store's back. */
async function sql(engine: 'sqlite' | 'postgres', where: string, text: string): Promise<void> {
  if (engine === 'sqlite') {
    const db = new Database(where);
    try {
      db.exec(text.replaceAll('recall_feed.', ''));
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: where });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Every record's raw JSON replaced by one that has none of the fields counted: what stats says then came from columns. */
const BLANK_RAW = `UPDATE recall_feed.recalls SET raw = '{"id":0}'`;

/** The archive as it was before the stat_* columns (SQLite 5, PostgreSQL 4). */
const DOWNGRADE = {
  sqlite: `DROP INDEX recalls_stats; ${Object.keys(FIELDS)
    .map((c) => `ALTER TABLE recalls DROP COLUMN stat_${c};`)
    .join('\n')} PRAGMA user_version = 5;`,
  postgres: `ALTER TABLE recall_feed.recalls ${Object.keys(FIELDS)
    .map((c) => `DROP COLUMN stat_${c}`)
    .join(', ')};
    UPDATE recall_feed.archive_meta SET value = '4' WHERE key = 'schema_version';`,
};

describe.each(ENGINES)('$engine: stats from columns', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  async function synced(prefix: string): Promise<{ where: string; list: SpecRecall[] }> {
    const where = engine === 'sqlite' ? tempFolder(prefix).file('a.db') : (await freshDatabase(prefix)).url;
    const list = records();
    const archive = await openArchive(where, { create: true });
    const run = await archive.beginRun({ sources: null, hours: 24 }, T0);
    for (let i = 0; i < list.length; i += 100) await archive.upsertPage(list.slice(i, i + 100), run);
    await archive.finishRun(run, 'ok', T0 + 60_000);
    await archive.close();
    return { where, list };
  }

  async function statsOf(where: string, readOnly: boolean) {
    const archive = await openArchive(where, { create: false, readOnly });
    try {
      return await archive.stats({}, ALL);
    } finally {
      await archive.close();
    }
  }

  it('counts every field as the synced records give it, without reading raw', async () => {
    const { where, list } = await synced('rf_statcols');
    const want = expected(list);
    const before = await statsOf(where, true);
    expect(before.total).toBe(list.length);
    for (const field of ALL) expect(before.counts[field], field).toEqual(want[field]);

    await sql(engine, where, BLANK_RAW);
    const after = await statsOf(where, true);
    for (const field of ALL) expect(after.counts[field], field).toEqual(want[field]);
  });

  it('counts an archive from before the columns read-only, and the next writer fills them in', async () => {
    const { where, list } = await synced('rf_statmig');
    const want = expected(list);
    await sql(engine, where, DOWNGRADE[engine]);

    const old = await statsOf(where, true);
    for (const field of ALL) expect(old.counts[field], field).toEqual(want[field]);

    // A writable open migrates; with raw blanked afterwards, only the migrated columns can give these counts.
    await (await openArchive(where, { create: false })).close();
    await sql(engine, where, BLANK_RAW);
    const migrated = await statsOf(where, true);
    expect(migrated.total).toBe(list.length);
    for (const field of ALL) expect(migrated.counts[field], field).toEqual(want[field]);
  });
});
