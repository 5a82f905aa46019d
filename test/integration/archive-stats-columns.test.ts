// Stats from the stat_* columns, both engines: the counts the synced records give, with raw unread; an archive from before the columns is counted read-only and migrated by the next writer. On PostgreSQL, the narrow recall_stats table (v6): the same counts before and after it, kept in step by every write, and recalls' columns for a reader that may not read it.
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive, STATS_FIELDS, type StatsField } from '../../src/archive/index.js';
import { ms, plain, sampleRecords, tempFolder } from '../helpers/archive.js';
import { randomBytes } from 'node:crypto';
import { deferCleanup } from '../helpers/cleanup.js';
import { adminQuery, ENGINES, freshDatabase, pgAdminUrl, withDatabase } from '../helpers/postgres.js';

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

/** The filters' folding, written apart from src/filters: no accents, no case, whitespace runs as one space, trimmed. */
const folded = (s: string) => plain(s).replace(/\s+/g, ' ').trim();
/** The sandbox's countries of origin (src/sandbox/vocab.ts) as --country reads them: one country, named in English or French. */
const COUNTRY: Record<string, string> = {
  China: 'CN',
  Chine: 'CN',
  Vietnam: 'VN',
  India: 'IN',
  Turkey: 'TR',
  Poland: 'PL',
  'United States': 'US',
  Germany: 'DE',
  Bangladesh: 'BD',
  Mexico: 'MX',
  France: 'FR',
  Italie: 'IT',
  Espagne: 'ES',
  Belgique: 'BE',
};
/** A value's texts: itself, or the texts in a list; nothing for anything else. */
const texts = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * A record field's counts as the filters see it: a group per distinct key a recall's value gives (once per recall), null
 * for the recalls with none; labelled by the key (severity, status) or by the spelling most recalls of the group use.
 */
function grouped(values: unknown[], keysOf: (v: unknown) => [string, string][], byKey: boolean) {
  const groups = new Map<string, { count: number; votes: Map<string, number> }>();
  let none = 0;
  for (const v of values) {
    const keys = keysOf(v);
    if (keys.length === 0) none++;
    for (const key of new Set(keys.map(([k]) => k))) {
      const g = groups.get(key) ?? { count: 0, votes: new Map<string, number>() };
      groups.set(key, g);
      g.count++;
    }
    for (const pair of new Set(keys.map(([k, spelling]) => JSON.stringify([k, spelling])))) {
      const [key, spelling] = JSON.parse(pair) as [string, string];
      const votes = groups.get(key)?.votes as Map<string, number>;
      votes.set(spelling, (votes.get(spelling) ?? 0) + 1);
    }
  }
  const spelling = (votes: Map<string, number>) =>
    [...votes].map(([value, count]) => ({ value, count })).sort(byCountThenValue)[0]?.value as string;
  const out = [...groups].map(([key, g]) => ({ value: byKey ? key : spelling(g.votes), count: g.count }));
  return [...out, ...(none > 0 ? [{ value: null, count: none }] : [])].sort(byCountThenValue);
}

/** What stats should say, from the records themselves: every record field as the filters see it (grouped above). */
function expected(list: SpecRecall[]): Record<StatsField, { value: unknown; count: number }[]> {
  const out = {} as Record<StatsField, { value: unknown; count: number }[]>;
  const day = (r: SpecRecall) => new Date(ms(r.published_at)).toISOString().slice(0, 10);
  const hour = (r: SpecRecall) => `${new Date(ms(r.published_at)).toISOString().slice(0, 13)}:00`;
  out.source = counted(list.map((r) => r.data_source));
  out.day = counted(list.map(day));
  out.hour = counted(list.map(hour));
  const many = (v: unknown): [string, string][] => texts(v).map((s) => [folded(s), s]);
  const text = (v: unknown): [string, string][] => (typeof v === 'string' ? [[folded(v), v]] : []);
  const country = (v: unknown): [string, string][] => (typeof v === 'string' ? [[COUNTRY[v] ?? `? ${v}`, v]] : []);
  const read = {
    severity: many,
    status: many,
    risk: many,
    jurisdiction: many,
    category: text,
    brand: text,
    country,
  };
  for (const [name, field] of Object.entries(FIELDS)) {
    const values = list.map((r) => (r as unknown as Record<string, unknown>)[field]);
    out[name as StatsField] = grouped(
      values,
      read[name as keyof typeof FIELDS],
      name === 'severity' || name === 'status',
    );
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

/** The archive as it was before the stat_* columns (SQLite 5, PostgreSQL 4, so without recall_stats either). */
const DOWNGRADE = {
  sqlite: `DROP INDEX recalls_stats; ${Object.keys(FIELDS)
    .map((c) => `ALTER TABLE recalls DROP COLUMN stat_${c};`)
    .join('\n')} PRAGMA user_version = 5;`,
  postgres: `DROP TABLE recall_feed.recall_stats; ALTER TABLE recall_feed.recalls ${Object.keys(FIELDS)
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
    for (let i = 0; i < list.length; i += 100) await archive.upsertPage(list.slice(i, i + 100), run, Date.now);
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

/** recalls' stat columns set to NULL: what stats says then came from recall_stats. */
const BLANK_RECALLS = `UPDATE recall_feed.recalls SET raw = '{"id":0}', data_source = NULL, ${Object.keys(FIELDS)
  .map((c) => `stat_${c} = NULL`)
  .join(', ')}`;

/** Rows of recall_stats that differ from their recall's columns, both ways. */
const MISMATCHES = `SELECT count(*)::int AS n FROM (
  (SELECT id, published_us, data_source, ${Object.keys(FIELDS)
    .map((c) => `stat_${c}`)
    .join(', ')} FROM recall_feed.recalls
   EXCEPT SELECT * FROM recall_feed.recall_stats)
  UNION ALL
  (SELECT * FROM recall_feed.recall_stats
   EXCEPT SELECT id, published_us, data_source, ${Object.keys(FIELDS)
     .map((c) => `stat_${c}`)
     .join(', ')} FROM recall_feed.recalls)) AS d`;

describe.skipIf(!pgAdminUrl())('postgres: stats from recall_stats (schema 6)', () => {
  async function synced(list: SpecRecall[]): Promise<{ url: string; name: string }> {
    const db = await freshDatabase('rf_stattable');
    const archive = await openArchive(db.url, { create: true });
    const run = await archive.beginRun({ sources: null, hours: 24 }, T0);
    for (let i = 0; i < list.length; i += 100) await archive.upsertPage(list.slice(i, i + 100), run, Date.now);
    await archive.finishRun(run, 'ok', T0 + 60_000);
    await archive.close();
    return db;
  }

  async function statsOf(url: string, q: Parameters<Awaited<ReturnType<typeof openArchive>>['stats']>[0] = {}) {
    const archive = await openArchive(url, { create: false, readOnly: true });
    try {
      return await archive.stats(q, ALL);
    } finally {
      await archive.close();
    }
  }

  it('counts an archive from schema 5 the same before and after v6 fills recall_stats, then from it alone', async () => {
    const list = records();
    const db = await synced(list);
    const source = list[7]?.data_source as string;
    await adminQuery(
      `DROP TABLE recall_feed.recall_stats; UPDATE recall_feed.archive_meta SET value = '5' WHERE key = 'schema_version'`,
      [],
      db.name,
    );
    const before = await statsOf(db.url);
    const beforeOne = await statsOf(db.url, { sources: [source] });
    expect(before.total).toBe(list.length);
    for (const field of ALL) expect(before.counts[field], field).toEqual(expected(list)[field]);

    await (await openArchive(db.url, { create: false })).close();
    const [version] = await adminQuery<{ value: string }>(
      `SELECT value FROM recall_feed.archive_meta WHERE key = 'schema_version'`,
      [],
      db.name,
    );
    expect(Number(version?.value)).toBeGreaterThanOrEqual(6);
    expect((await adminQuery<{ n: number }>(MISMATCHES, [], db.name))[0]?.n).toBe(0);
    // With recalls' own columns blanked, only recall_stats can still give these counts.
    await adminQuery(BLANK_RECALLS, [], db.name);
    expect(await statsOf(db.url)).toEqual(before);
    const one = await statsOf(db.url, { sources: [source] });
    expect(one).toEqual(beforeOne);
    const ofSource = list.filter((r) => r.data_source === source);
    expect(one.total).toBe(ofSource.length);
    for (const field of ALL) expect(one.counts[field], field).toEqual(expected(ofSource)[field]);
  });

  it('follows every write: a newer version changes the counts, an older one changes nothing', async () => {
    const list = records();
    const db = await synced(list);
    const later = (r: SpecRecall, minutes: number) =>
      new Date(ms(r.updated_at ?? r.published_at) + minutes * 60_000).toISOString();
    const newer = list.slice(10, 40).map((r, i) => ({
      ...r,
      updated_at: later(r, 60),
      risk_severity: i % 2 ? 'low' : 'serious',
      product_brand: `Brand ${i % 3}`,
      risk_types: ['chemical', `kind ${i % 4}`],
      published_at: later(r, 30),
    }));
    const stale = list.slice(40, 50).map((r) => ({ ...r, updated_at: later(r, -60), risk_severity: 'stale' }));
    const archive = await openArchive(db.url, { create: false });
    const run = await archive.beginRun({ sources: null, hours: 24 }, T0 + 3_600_000);
    await archive.upsertPage([...newer, ...stale] as SpecRecall[], run, Date.now);
    await archive.finishRun(run, 'ok', T0 + 3_660_000);
    await archive.close();

    const now = list.map((r) => newer.find((n) => n.id === r.id) ?? r) as SpecRecall[];
    expect((await adminQuery<{ n: number }>(MISMATCHES, [], db.name))[0]?.n).toBe(0);
    const counts = await statsOf(db.url);
    expect(counts.total).toBe(list.length);
    for (const field of ALL) expect(counts.counts[field], field).toEqual(expected(now)[field]);
  });

  it('counts from recalls for a reader that may not read recall_stats', async () => {
    const list = records();
    const db = await synced(list);
    const role = `rf_reader_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE ROLE ${role} LOGIN PASSWORD 'reader-pw'`);
    deferCleanup(async () => {
      await adminQuery(`DROP OWNED BY ${role} CASCADE`, [], db.name).catch(() => {});
      await adminQuery(`DROP ROLE IF EXISTS ${role}`);
    });
    await adminQuery(
      `GRANT USAGE ON SCHEMA recall_feed TO ${role}; GRANT SELECT ON ALL TABLES IN SCHEMA recall_feed TO ${role};
       REVOKE SELECT ON recall_feed.recall_stats FROM ${role}`,
      [],
      db.name,
    );
    const url = withDatabase(pgAdminUrl() as string, db.name, { name: role, password: 'reader-pw' });
    const counts = await statsOf(url);
    expect(counts.total).toBe(list.length);
    for (const field of ALL) expect(counts.counts[field], field).toEqual(expected(list)[field]);
  });
});
