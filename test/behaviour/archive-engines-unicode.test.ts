// Text that PostgreSQL cannot hold as it is (a lone surrogate, a NUL) and words outside the Latin script, synced into
// SQLite and PostgreSQL: the sync goes through on both, a second sync stores no new version, and stats, query and
// --search give the same answers on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { pgAdminUrl } from '../helpers/postgres.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';

describe.skipIf(!pgAdminUrl())('SQLite and PostgreSQL: lone surrogates, NULs and words of other scripts', () => {
  let sandbox: Sandbox;
  let sqlite: TestArchive;
  let postgres: TestArchive;
  /** The added records' ids by name. */
  const ids: Record<string, number> = {};
  /** How many recalls the first sync stored (the generated ones in its window, and the added ones). */
  let total = 0;

  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 60, seed: 17, clock: () => FIXED_START });
    const plain = { alert_summary: 'plain', product_description: 'plain', packaging_description: 'plain' };
    const added = {
      // A lone surrogate (valid JSON: "\ud800") in stats fields and in the title; a NUL in others.
      surrogate: {
        product_brand: 'Sur\ud800rogate',
        risk_types: ['fi\udc00re', 'fire'],
        alert_title: 'Lone \udc00 title',
      },
      nul: { risk_severity: 'hi\u0000gh', product_brand: 'Nul\u0000Brand', alert_title: 'A NUL \u0000 inside' },
      odysseus: { alert_title: 'Οδυσσεύς' },
      odysseusCaps: { alert_title: 'ΟΔΥΣΣΕΥΣ' },
      yolochka: { product_brand: 'Ёлочка' },
      yogurt: { product_name: 'Йогурт' },
      lampMarked: { alert_title: 'مَصباح' },
      lamp: { alert_title: 'مصباح' },
      shalom: { alert_title: 'שָׁלוֹם' },
      hindi: { alert_title: 'हिन्दी' },
    };
    const made = sandbox.addRecords(Object.values(added).map((r) => ({ ...plain, ...r })));
    Object.keys(added).forEach((name, i) => {
      ids[name] = made[i]!.id;
    });
    [sqlite, postgres] = await Promise.all([testArchive('sqlite'), testArchive('postgres')]);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** The command on both archives: it must succeed on SQLite, and stdout, exit code and stderr must match. */
  async function same(args: string[]): Promise<string> {
    const [a, b] = await Promise.all([sqlite, postgres].map((x) => runMain([...args, '--db', x.db])));
    expect(a!.code, `${args.join(' ')}: ${a!.stderr}`).toBe(0);
    expect(b!.stderr.replaceAll(postgres.name, 'ARCHIVE')).toBe(a!.stderr.replaceAll(sqlite.name, 'ARCHIVE'));
    expect(b!.code, args.join(' ')).toBe(a!.code);
    expect(b!.stdout, args.join(' ')).toBe(a!.stdout);
    return a!.stdout;
  }

  const idsOf = (csv: string) =>
    csv
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map(Number)
      .sort((x, y) => x - y);

  it('syncs on both engines, twice: the second sync stores no new version of anything', async () => {
    for (const a of [sqlite, postgres]) {
      const first = await runMainAgainst(sandbox, ['sync', '--db', a.db, '-q']);
      expect(first.stderr, a.engine).toBe('');
      expect(first.code, a.engine).toBe(0);
      const second = await runMainAgainst(sandbox, ['sync', '--db', a.db, '-q']);
      expect(second.stderr, a.engine).toBe('');
      expect(second.code, a.engine).toBe(0);
      const runs = await a.rows<{ outcome: string; added: unknown; updated: unknown; unchanged: unknown }>(
        'SELECT outcome, added, updated, unchanged FROM sync_runs ORDER BY id',
      );
      total ||= Number(runs[0]?.added);
      expect(total).toBeGreaterThanOrEqual(Object.keys(ids).length);
      expect(
        runs.map((r) => [r.outcome, Number(r.added), Number(r.updated), Number(r.unchanged)]),
        a.engine,
      ).toEqual([
        ['ok', total, 0, 0],
        ['ok', 0, 0, total],
      ]);
      const kept = await a.rows<{ n: unknown }>('SELECT count(*) AS n FROM recall_versions');
      expect(Number(kept[0]!.n), a.engine).toBe(0);
      const versions = await a.rows<{ version: unknown }>(`SELECT version FROM recalls WHERE id = ${ids.surrogate}`);
      expect(versions.map((v) => Number(v.version))).toEqual([1]);
      expect(await a.held()).toMatchObject({ count: total, integrity: 'ok' });
    }
  });

  it('query prints each recall as the API sent it, lone surrogate and NUL as JSON escapes, on both', async () => {
    const all = await same(['query', '-f', 'jsonl']);
    expect(all.split('\n').filter(Boolean)).toHaveLength(total);
    const one = await same(['query', '-f', 'jsonl', '--brand', 'sur']);
    expect(one).toContain('"product_brand":"Sur\\ud800rogate"');
    expect(await same(['show', String(ids.nul), '-f', 'json'])).toContain('"risk_severity":"hi\\u0000gh"');
  });

  it('stats labels a lone surrogate or a NUL as U+FFFD on both engines, in json and csv (no NUL byte)', async () => {
    const json = JSON.parse(await same(['stats', '--by', 'severity,brand,risk', '-f', 'json'])) as Record<
      string,
      { value: string | null; count: number }[]
    >;
    expect(json.severity).toContainEqual({ value: 'hi\uFFFDgh', count: 1 });
    expect(json.brand).toContainEqual({ value: 'Sur\uFFFDrogate', count: 1 });
    expect(json.brand).toContainEqual({ value: 'Nul\uFFFDBrand', count: 1 });
    expect(json.risk).toContainEqual({ value: 'fi\uFFFDre', count: 1 });
    const csv = await same(['stats', '--by', 'severity,brand', '-f', 'csv']);
    expect(csv).not.toContain('\u0000');
    expect(csv).toContain('\nbrand,Nul\uFFFDBrand,1\n');
    expect(csv).toContain('\nseverity,hi\uFFFDgh,1\n');
    await same(['stats', '--by', 'source,severity,day', '-f', 'jsonl']);
  });

  it('a group stats shows is the one query selects by its label, on both engines', async () => {
    expect(idsOf(await same(['query', '--severity', 'hi\uFFFDgh', '-f', 'csv', '--columns', 'id']))).toEqual([ids.nul]);
    expect(idsOf(await same(['query', '--brand', 'Sur\uFFFDrogate', '-f', 'csv', '--columns', 'id']))).toEqual([
      ids.surrogate,
    ]);
  });

  it('recalls_view reads every row on PostgreSQL, U+FFFD in place of a lone surrogate or a NUL', async () => {
    const rows = await postgres.rows<{ id: string; product_brand: string; alert_title: string }>(
      `SELECT id, product_brand, alert_title FROM recalls_view WHERE id IN (${ids.surrogate}, ${ids.nul}) ORDER BY id`,
    );
    expect(rows.map((r) => [Number(r.id), r.product_brand, r.alert_title])).toEqual([
      [ids.surrogate, 'Sur\uFFFDrogate', 'Lone \uFFFD title'],
      [ids.nul, 'Nul\uFFFDBrand', 'A NUL \uFFFD inside'],
    ]);
    const count = await postgres.rows<{ n: string }>('SELECT count(record) AS n FROM recalls_view');
    expect(Number(count[0]!.n)).toBe(total);
  });

  // FTS5 (SQLite) keeps the Greek tonos and Cyrillic ё and й, folds ς to σ, and parts words at Arabic, Hebrew and
  // Devanagari marks: what each word finds follows, and PostgreSQL must find the same.
  it.each<[string, string[]]>([
    ['οδυσσεύς', ['odysseus']],
    ['ΟΔΥΣΣΕΎΣ', ['odysseus']],
    ['οδυσσευσ', ['odysseusCaps']],
    ['елочка', []],
    ['ёлочка', ['yolochka']],
    ['иогурт', []],
    ['ЙОГУРТ', ['yogurt']],
    ['مصباح', ['lamp']],
    ['صباح', ['lampMarked']],
    ['שלום', []],
    ['לו', ['shalom']],
    ['नद', []],
    ['न', ['hindi']],
  ])('query --search %j finds the same recalls on both engines', async (word, names) => {
    const found = idsOf(await same(['query', '--search', word, '-f', 'csv', '--columns', 'id']));
    const ours = Object.values(ids);
    expect(found.filter((id) => ours.includes(id))).toEqual(names.map((n) => ids[n]).sort((x, y) => x! - y!));
  });
});
