// query filters and search, stats and show over a synced archive; expectations computed from the sandbox's records.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { displayWidth } from '../../src/output/text-width.js';
import { ms, plain, searchableWords, tempFolder, words } from '../helpers/archive.js';
import { testArchive } from '../helpers/archive-engines.js';
import { ENGINES } from '../helpers/postgres.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { expectedFeed } from '../helpers/expected.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  let sandbox: Sandbox;
  let window: SpecRecall[];
  let hostile: SpecRecall;
  const folder = tempFolder('rf-query-');
  let db: string;
  let dbName: string;

  beforeAll(async () => {
    ({ db, name: dbName } = await testArchive(engine));
    sandbox = await sandboxFor({ recordCount: 600, seed: 41, clock: () => FIXED_START });
    [hostile] = sandbox.addRecords([
      {
        alert_title: 'Crème brûlée torch \u001b[31mRED\u001b[0m recalled\u0007',
        product_brand: 'Flambé\u001b]0;pwned\u0007 Co',
        product_model_numbers: ['CB-100', 'CB-200'],
        alert_summary: 'First paragraph.\nSecond paragraph with \u202eswapped\u202c text.',
      },
    ]) as [SpecRecall];
    window = expectedFeed(sandbox, { now: FIXED_START });
    const synced = await runMainAgainst(sandbox, ['sync', '--db', db]);
    expect(synced.code).toBe(0);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  /** CSV text through Python's reader (it reads files). */
  let csvCount = 0;
  function pythonRows(text: string): Promise<string[][]> {
    const file = folder.file(`out-${++csvCount}.csv`);
    writeFileSync(file, text);
    return parseCsvWithPython(file);
  }

  const query = (args: string[]) => runMain(['query', '--db', db, '-f', 'jsonl', ...args]);
  const ids = (text: string) => jsonLines(text).map((r) => r.id);
  const idsOf = (list: SpecRecall[]) => list.map((r) => r.id);

  describe('what a run that wrote -o says (with -v, as on a terminal)', () => {
    it('query, stats and show each end with the line naming the file, in the singular for one', async () => {
      const out = (name: string) => folder.file(name);
      const one = window.filter((r) => r.data_source === 'us_cpsc').slice(0, 1);
      const q = await runMain(['query', '--db', db, '--limit', '1', '-o', out('q.csv'), '-v']);
      expect(q.code, q.stderr).toBe(0);
      expect(q.stderr).toContain(`wrote 1 recall from ${dbName} to ${out('q.csv')}\n`);
      const s = await runMain(['stats', '--db', db, '-o', out('s.csv'), '-v']);
      expect(s.stderr).toContain(`wrote the counts of ${window.length} recalls in ${dbName} to ${out('s.csv')}\n`);
      const id = String(one[0]?.id);
      const h = await runMain(['show', id, '--db', db, '--history', '-o', out('h.jsonl'), '-v']);
      expect(h.stderr).toContain(`wrote 1 version to ${out('h.jsonl')}\n`);
      // Without -v, off a terminal (cron): nothing but what went wrong.
      const quiet = await runMain(['query', '--db', db, '--limit', '1', '-o', out('q2.csv')]);
      expect(quiet.stderr).toBe('');
    });
  });

  describe('query', () => {
    it.each<[string, string[], (r: SpecRecall) => boolean]>([
      ['--severity', ['--severity', 'Serious,LOW'], (r) => ['serious', 'low'].includes(r.risk_severity)],
      ['--risk', ['--risk', 'fire'], (r) => r.risk_types.includes('fire')],
      ['--status', ['--status', 'updated'], (r) => r.alert_status === 'updated'],
      ['--jurisdiction', ['--jurisdiction', 'fr'], (r) => r.geo_jurisdictions.includes('FR')],
      ['--brand', ['--brand', 'MAISON'], (r) => plain(r.product_brand).includes('maison')],
      ['--category', ['--category', 'jouet'], (r) => plain(r.product_category).includes('jouet')],
      ['--country', ['--country', 'Viêt Nam'], (r) => plain(r.country_of_origin) === 'vietnam'],
      ['--grep', ['--grep', 'LITHIUM'], (r) => plain(JSON.stringify(Object.values(r))).includes('lithium')],
      ['--sources', ['--sources', 'uk_opss,us_cpsc'], (r) => ['uk_opss', 'us_cpsc'].includes(r.data_source)],
      [
        'combined',
        ['--severity', 'high', '--jurisdiction', 'US', '--grep', 'charg'],
        (r) =>
          r.risk_severity === 'high' &&
          r.geo_jurisdictions.includes('US') &&
          plain(JSON.stringify(Object.values(r))).includes('charg'),
      ],
    ])('%s selects what the records say', async (_, args, expected) => {
      const want = window.filter(expected);
      expect(want.length).toBeGreaterThan(0);
      const r = await query(args);
      expect(r.code).toBe(0);
      expect(ids(r.stdout)).toEqual(idsOf(want));
    });

    it('--search finds every word without case or accents, in model numbers too', async () => {
      for (const text of ['creme brulee', 'cb 200', 'LISTERIA']) {
        const want = window.filter((r) => words(text).every((w) => searchableWords(r).includes(w)));
        expect(want.length, text).toBeGreaterThan(0);
        expect(ids((await query(['--search', text])).stdout), text).toEqual(idsOf(want));
      }
    });

    it('--since and --until window published_at; --sort, --order and --limit as the API orders', async () => {
      const since = '2026-01-15T00:00:00Z';
      const until = '2026-01-15T06:00';
      const want = window.filter(
        (r) => ms(r.published_at) >= Date.parse(since) && ms(r.published_at) < Date.parse(`${until}Z`),
      );
      expect(ids((await query(['--since', since, '--until', until])).stdout)).toEqual(idsOf(want));
      const asc = expectedFeed(sandbox, { now: FIXED_START, sortBy: 'updated_at', order: 'asc' });
      expect(ids((await query(['--sort', 'updated_at', '--order', 'asc', '--limit', '25'])).stdout)).toEqual(
        idsOf(asc.slice(0, 25)),
      );
    });

    it('a window that ends before it starts is exit 2 naming both flags, for query and stats (it printed nothing, exit 0)', async () => {
      for (const command of ['query', 'stats'])
        for (const [since, until] of [
          ['7d', '30d'],
          ['2026-01-15', '2026-01-15'],
        ] as const) {
          const r = await runMain([command, '--db', db, '--since', since, '--until', until]);
          expect(r.code).toBe(2);
          expect(r.stdout).toBe('');
          expect(r.stderr).toBe(
            `error: --until ${until} is not after --since ${since}: the window would be empty\nhint: durations count back from now: --since 30d --until 7d is from 30 days ago to 7 days ago\n`,
          );
        }
    });

    it('--columns warns of a name no recall has (csv), and that jsonl prints whole records, as feed does', async () => {
      const csv = await runMain(['query', '--db', db, '-f', 'csv', '--limit', '2', '--columns', 'id,recall_notes']);
      expect(csv.code).toBe(0);
      expect(csv.stdout.split('\n')[0]).toBe('id,recall_notes');
      expect(csv.stderr).toMatch(/^warning: no record has the column 'recall_notes' \(left empty\); /m);
      const jsonl = await runMain(['query', '--db', db, '-f', 'jsonl', '--limit', '1', '--columns', 'id']);
      expect(jsonl.code).toBe(0);
      expect(jsonl.stderr).toContain(
        'warning: --columns applies to table, csv and parquet only; jsonl prints whole records',
      );
      const known = await runMain(['query', '--db', db, '-f', 'csv', '--limit', '1', '--columns', 'id,product_name']);
      expect(known.stderr).not.toContain('warning');
    });

    it('csv has the feed columns and guards formulas; Python reads it back', async () => {
      const r = await runMain(['query', '--db', db, '-f', 'csv', '--brand', 'hyperlink']);
      const rows = await pythonRows(r.stdout);
      expect(rows[0]).toContain('product_brand');
      const brand = rows[0]!.indexOf('product_brand');
      expect(rows.slice(1).map((row) => row[brand])).toEqual(
        window.filter((x) => x.product_brand.startsWith('=HYPERLINK')).map((x) => `'${x.product_brand}`),
      );
    });
  });

  describe('stats', () => {
    const counted = (values: unknown[]) => {
      const m = new Map<unknown, number>();
      for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
      return [...m]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) => b.count - a.count || (String(a.value) < String(b.value) ? -1 : 1));
    };

    it('-f json counts by field, array fields element by element, with the filters applied', async () => {
      const r = await runMain([
        'stats',
        '--db',
        db,
        '--by',
        'severity,risk,jurisdiction,day',
        '--sources',
        'safety_gate',
        '--grep',
        'e',
        '-f',
        'json',
      ]);
      expect(r.code).toBe(0);
      const chosen = window.filter(
        (x) => x.data_source === 'safety_gate' && plain(JSON.stringify(Object.values(x))).includes('e'),
      );
      expect(JSON.parse(r.stdout)).toEqual({
        severity: counted(chosen.map((x) => x.risk_severity)),
        risk: counted(chosen.flatMap((x) => x.risk_types)),
        jurisdiction: counted(chosen.flatMap((x) => x.geo_jurisdictions)),
        day: counted(chosen.map((x) => x.published_at.slice(0, 10))),
      });
    });

    it('-f csv prints field,value,count; --live counts the window without an archive', async () => {
      const csv = await runMain(['stats', '--db', db, '--by', 'source,status', '-f', 'csv']);
      const expected = [
        ['field', 'value', 'count'],
        ...counted(window.map((x) => x.data_source)).map((c) => ['source', c.value, String(c.count)]),
        ...counted(window.map((x) => x.alert_status)).map((c) => ['status', c.value, String(c.count)]),
      ];
      expect(await pythonRows(csv.stdout)).toEqual(expected);
      const live = await runMainAgainst(sandbox, ['stats', '--live', '--by', 'source,status', '-f', 'csv'], {
        env: { RECALL_FEED_DB: folder.file('none.db') },
      });
      expect(live.code).toBe(0);
      expect(live.stdout).toBe(csv.stdout);
    });

    it.each([40, 120, 200])('draws bar charts and an hourly histogram that fit %i columns', async (columns) => {
      const r = await runMain(['stats', '--db', db, '--by', 'severity,brand,hour'], {
        env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: String(columns) },
      });
      expect(r.code).toBe(0);
      for (const line of lines(r.stdout)) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      expect(r.stdout).not.toMatch(/\u001b/);
      for (const c of counted(window.map((x) => x.risk_severity)))
        expect(r.stdout).toMatch(new RegExp(`^  ${c.value} +${c.count} █`, 'm'));
      const hours = lines(r.stdout.slice(r.stdout.indexOf('hour (published, UTC)')))
        .slice(1)
        .map((l) => l.trim().split(/ +/).slice(0, 2).join(' '));
      const first = Math.min(...window.map((x) => ms(x.published_at)));
      const iso = new Date(first).toISOString();
      expect(hours[0]).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 13)}h`);
      expect(hours).toHaveLength(new Set(hours).size);
      expect(r.stderr).toBe(`${window.length} recalls in ${dbName}\n`);
    });
  });

  describe('show', () => {
    it('prints every field for a person, wrapped, with no control codes from the data', async () => {
      const r = await runMain(['show', String(hostile.id), '--db', db], {
        env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: '70' },
      });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e\u202c]/);
      for (const line of lines(r.stdout))
        if (!/https?:\/\//.test(line)) expect(displayWidth(line), line).toBeLessThanOrEqual(70);
      expect(r.stdout).toMatch(/^recall \d+ · /);
      expect(r.stdout).toContain('Crème brûlée torch [31mRED[0m recalled');
      expect(r.stdout).toMatch(/^product model numbers +• CB-100\n +• CB-200$/m);
      expect(r.stdout).toContain(hostile.source_url);
      for (const party of hostile.involved_parties)
        expect(r.stdout).toContain(`• ${party.name} — ${party.role}, ${party.country}`);
      expect(r.stdout).toMatch(/^alert summary +First paragraph\.\n +Second paragraph/m);
    });

    it('falls back to the live window for a recall the archive lacks; an unknown id is exit 2', async () => {
      const [fresh] = sandbox.addRecords([{ alert_title: 'Only live' }]);
      const r = await runMainAgainst(sandbox, ['show', String(fresh!.id), '--db', db, '-f', 'json']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${JSON.stringify(fresh)}\n`);
      const missing = await runMainAgainst(sandbox, ['show', '1', '--db', db]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(`error: no recall 1 in the archive ${dbName} or in the last 24 hours of the feed\n`);
      const history = await runMain(['show', String(fresh!.id), '--history', '--db', db]);
      expect(history.code).toBe(2);
      expect(history.stderr).toBe(
        `error: recall ${fresh!.id} is not archived (not in ${dbName})\nhint: run \`recall-feed sync\` to store it\n`,
      );
    });
  });
});
