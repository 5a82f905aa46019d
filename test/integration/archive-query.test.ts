import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive, type ArchiveListing, type ArchiveStore, type StatsField } from '../../src/archive/index.js';
import { compileFilter, type RecordFilter } from '../../src/filters/record-filter.js';
import { all, ms, plain, sampleRecords, TEXT_FIELDS, tempFolder, words } from '../helpers/archive.js';
import { ENGINES, freshDatabase } from '../helpers/postgres.js';

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const folder = tempFolder();
  let archive: ArchiveStore;
  let records: SpecRecall[];
  beforeAll(async () => {
    records = sampleRecords(400);
    const where = engine === 'sqlite' ? folder.file('q.db') : (await freshDatabase('rf_unit')).url;
    archive = await openArchive(where, { create: true });
    const run = await archive.beginRun({}, Date.now());
    for (let i = 0; i < records.length; i += 100) await archive.upsertPage(records.slice(i, i + 100), run, Date.now);
  });
  afterAll(async () => {
    await archive?.close();
  });

  const ids = async (q: ArchiveListing) => (await all(archive.records(q))).map((r) => r.id);
  /** The API's order: the sort key, then id, both in the same direction. */
  function ordered(
    list: SpecRecall[],
    field: 'published_at' | 'updated_at' | 'created_in_db_at' = 'published_at',
    dir = -1,
  ) {
    return [...list].sort((a, b) => (ms(a[field]) - ms(b[field]) || a.id - b.id) * dir).map((r) => r.id);
  }

  describe('listing', () => {
    it('orders by published_at desc with ties broken by id desc, and by any sort field either way', async () => {
      expect(await ids({})).toEqual(ordered(records));
      expect(await ids({ order: 'asc' })).toEqual(ordered(records, 'published_at', 1));
      expect(await ids({ sortBy: 'updated_at', order: 'asc' })).toEqual(ordered(records, 'updated_at', 1));
      // created_in_db_at carries microseconds: Date.parse keeps milliseconds, so compare against the digits.
      const created = [...records]
        .sort((a, b) => a.created_in_db_at.localeCompare(b.created_in_db_at) || a.id - b.id)
        .map((r) => r.id);
      expect(await ids({ sortBy: 'created_in_db_at', order: 'asc' })).toEqual(created);
    });

    it('returns each record exactly as stored', async () => {
      const byId = new Map(records.map((r) => [r.id, JSON.stringify(r)]));
      for (const r of await all(archive.records({}))) expect(JSON.stringify(r)).toBe(byId.get(r.id as number));
    });

    it('gives the same records as stored JSON text (recordTexts), with a residual filter and a limit too', async () => {
      for (const q of [{}, { search: 'lithium' }, { filter: { grep: 'e' }, limit: 9, order: 'asc' as const }]) {
        const texts = await all(archive.recordTexts(q));
        expect(texts.length).toBeGreaterThan(0);
        expect(texts).toEqual((await all(archive.records(q))).map((r) => JSON.stringify(r)));
      }
    });

    it('limits, windows on published_at (since inclusive, until exclusive) and picks sources', async () => {
      expect(await ids({ limit: 7 })).toEqual(ordered(records).slice(0, 7));
      const since = ms(records[100]!.published_at);
      const until = ms(records[200]!.published_at);
      const inWindow = records.filter((r) => ms(r.published_at) >= since && ms(r.published_at) < until);
      expect(inWindow.length).toBeGreaterThan(0);
      expect(await ids({ sinceUs: since * 1000, untilUs: until * 1000 })).toEqual(ordered(inWindow));
      const sources = ['uk_opss', 'rappel_conso'];
      expect(await ids({ sources })).toEqual(ordered(records.filter((r) => sources.includes(r.data_source))));
    });
  });

  describe('record filters', () => {
    const cases: [string, RecordFilter, (r: SpecRecall) => boolean][] = [
      ['severity', { severity: ['SERIOUS', 'low'] }, (r) => ['serious', 'low'].includes(r.risk_severity)],
      ['risk (any element)', { risk: ['Fire'] }, (r) => r.risk_types.includes('fire')],
      ['risk with accents', { risk: ['ELECTROCUTION'] }, (r) => r.risk_types.includes('électrocution')],
      ['status', { status: ['updated'] }, (r) => r.alert_status === 'updated'],
      [
        'jurisdiction',
        { jurisdiction: ['fr', 'DE'] },
        (r) => r.geo_jurisdictions.some((j) => j === 'FR' || j === 'DE'),
      ],
      ['brand substring, accents', { brand: 'cote' }, (r) => plain(r.product_brand).includes('cote')],
      ['category substring', { category: 'TOY' }, (r) => plain(r.product_category).includes('toy')],
      [
        'country: whole, in any language',
        { country: 'china' },
        (r) => ['china', 'chine'].includes(plain(r.country_of_origin)),
      ],
      ['grep anywhere', { grep: 'lithium' }, (r) => plain(JSON.stringify(Object.values(r))).includes('lithium')],
      [
        'combined',
        { severity: ['high'], risk: ['injury', 'blessure'], brand: 'a' },
        (r) =>
          r.risk_severity === 'high' &&
          r.risk_types.some((t) => t === 'injury' || t === 'blessure') &&
          plain(r.product_brand).includes('a'),
      ],
    ];
    it.each(cases)('%s', async (_, filter, expected) => {
      const want = records.filter(expected);
      expect(want.length).toBeGreaterThan(0);
      expect(await ids({ filter })).toEqual(ordered(want));
    });

    it('gives what the JavaScript filter gives, for every filter alone and with --grep and a limit', async () => {
      for (const [, filter] of cases) {
        const js = ordered(records.filter(compileFilter(filter)));
        expect(await ids({ filter })).toEqual(js);
        const withGrep = { ...filter, grep: 'e' };
        expect(await ids({ filter: withGrep, limit: 5 })).toEqual(
          ordered(records.filter(compileFilter(withGrep))).slice(0, 5),
        );
      }
    });
  });

  describe('full-text search', () => {
    const indexed = (r: SpecRecall) =>
      new Set([...TEXT_FIELDS.flatMap((f) => words(String(r[f] ?? ''))), ...r.product_model_numbers.flatMap(words)]);
    const expectSearch = (text: string) => {
      const wanted = words(text);
      return ordered(records.filter((r) => wanted.every((w) => indexed(r).has(w))));
    };

    it('finds every word in any field, without case or accents', async () => {
      for (const text of ['creme brulee', 'CRÈME', 'listeria', 'fire charging', 'patisserie', 'zq99', 'Kids']) {
        const want = expectSearch(text);
        expect(want.length, text).toBeGreaterThan(0);
        expect(await ids({ search: text }), text).toEqual(want);
      }
    });

    it('gives a limited search the first rows of the whole one, in every order, with a window, sources and --grep', async () => {
      const fire = records.filter((r) => indexed(r).has('fire'));
      const byId = new Map(records.map((r) => [r.id, r]));
      expect(fire.length).toBeGreaterThan(20);
      for (const field of ['published_at', 'updated_at'] as const)
        for (const dir of [-1, 1]) {
          const order = dir === 1 ? ('asc' as const) : ('desc' as const);
          expect(await ids({ search: 'fire', limit: 5, sortBy: field, order }), `${field} ${order}`).toEqual(
            ordered(fire, field, dir).slice(0, 5),
          );
        }
      const created = [...fire].sort((a, b) => b.created_in_db_at.localeCompare(a.created_in_db_at) || b.id - a.id);
      expect(await ids({ search: 'fire', limit: 4, sortBy: 'created_in_db_at' })).toEqual(
        created.slice(0, 4).map((r) => r.id),
      );
      // The newer half of the hits, from all their sources but one.
      const since = Math.min(
        ...ordered(fire)
          .slice(0, fire.length / 2)
          .map((id) => ms(byId.get(id)!.published_at)),
      );
      const sources = [...new Set(fire.map((r) => r.data_source))].slice(1);
      const filter = { grep: 'e' };
      const narrowed = fire.filter(
        (r) => ms(r.published_at) >= since && sources.includes(r.data_source) && compileFilter(filter)(r),
      );
      expect(narrowed.length).toBeGreaterThan(3);
      expect(await ids({ search: 'fire', limit: 3, sinceUs: since * 1000, sources, filter })).toEqual(
        ordered(narrowed).slice(0, 3),
      );
      // A limit larger than the hits gives them all.
      expect(await ids({ search: 'fire', limit: fire.length + 10, order: 'asc' })).toEqual(
        ordered(fire, 'published_at', 1),
      );
    });

    it('treats punctuation and query syntax as text, and a trailing * as a prefix', async () => {
      expect(await ids({ search: 'XK-200/B' })).toEqual(expectSearch('xk 200 b'));
      expect(await ids({ search: '"brulee' })).toEqual(expectSearch('brulee'));
      expect(await ids({ search: 'fire AND NOT' })).toEqual(expectSearch('fire and not'));
      const prefix = ordered(records.filter((r) => [...indexed(r)].some((w) => w.startsWith('listeri'))));
      expect(await ids({ search: 'listeri*' })).toEqual(prefix);
      expect(await ids({ search: '   ' })).toEqual([]);
    });
  });

  describe('stats', () => {
    function count(values: unknown[]) {
      const m = new Map<unknown, number>();
      for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
      return [...m]
        .map(([value, n]) => ({ value, count: n }))
        .sort((a, b) => b.count - a.count || (String(a.value) < String(b.value) ? -1 : 1));
    }
    const hour = (r: SpecRecall) => `${new Date(ms(r.published_at)).toISOString().slice(0, 13)}:00`;

    it('counts values, each distinct element of array fields once per recall, and days and hours of publication', async () => {
      const by: StatsField[] = ['source', 'severity', 'risk', 'jurisdiction', 'brand', 'day', 'hour'];
      const result = await archive.stats({}, by);
      expect(result.total).toBe(records.length);
      expect(result.counts.source).toEqual(count(records.map((r) => r.data_source)));
      expect(result.counts.severity).toEqual(count(records.map((r) => r.risk_severity)));
      // A recall without a risk type counts under null (none), as a missing scalar does.
      expect(result.counts.risk).toEqual(count(records.flatMap((r) => (r.risk_types.length ? r.risk_types : [null]))));
      expect(result.counts.jurisdiction).toEqual(count(records.flatMap((r) => r.geo_jurisdictions)));
      expect(result.counts.brand).toEqual(count(records.map((r) => r.product_brand)));
      expect(result.counts.day).toEqual(count(records.map((r) => r.published_at.slice(0, 10))));
      expect(result.counts.hour).toEqual(count(records.map(hour)));
    });

    it('counts only what the query selects, SQL filters and --grep alike', async () => {
      const filter: RecordFilter = { severity: ['serious'], grep: 'child' };
      const chosen = records.filter((r) => r.risk_severity === 'serious' && plain(JSON.stringify(r)).includes('child'));
      expect(chosen.length).toBeGreaterThan(0);
      const result = await archive.stats({ filter, sources: ['rappel_conso', 'safety_gate'] }, ['status']);
      const want = chosen.filter((r) => ['rappel_conso', 'safety_gate'].includes(r.data_source));
      expect(result.total).toBe(want.length);
      expect(result.counts.status).toEqual(count(want.map((r) => r.alert_status)));
    });
  });
});
