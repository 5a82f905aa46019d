// An incremental `match --archive` (only the recalls stored since the last run checked) writes what a --full run writes.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { runMain } from '../helpers/in-process.js';
import { emptiedVersions, generatedCatalogue, generatedRecalls } from '../helpers/match-generated.js';
import { type Engine, ENGINES } from '../helpers/postgres.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { storeRun } from '../helpers/archive.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;

/**
 * A test's archive, cache folder and catalogue (`catalogue`: its text), with the recalls `first` stored, and
 * `run(args)`: `match --archive` of that catalogue and archive with `fixed` flags first.
 */
async function incrementalSetup(engine: Engine, catalogue: string, first: Rec[], fixed: string[] = []) {
  const archive = await testArchive(engine);
  const dir = tempDir('rf-incr-');
  const cache = tempDir('rf-incr-cache-');
  const catalog = path.join(dir, 'catalogue.csv');
  writeFileSync(catalog, catalogue);
  await storeRun(archive.db, first);
  // On a terminal: which kind of run it was, and the last line, are said to someone watching (off one, silent).
  const run = (args: string[]) =>
    runMain(['match', '--catalog', catalog, '--archive', '--db', archive.db, ...fixed, ...args], {
      env: { RECALL_FEED_CACHE_DIR: cache },
      stderrIsTTY: true,
    });
  return { archive, cache, catalog, run };
}

const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1);
const stateFiles = (cache: string) =>
  readdirSync(path.join(cache, 'match-state')).map((f) => path.join(cache, 'match-state', f));

describe.each(ENGINES)('match --archive, incremental, on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('after new recalls and new versions: the rows, order and counts of a --full run, in every format', async () => {
    const all = generatedRecalls(700, 7);
    const { archive, cache, run } = await incrementalSetup(
      engine,
      generatedCatalogue(all, 600, 3, 4),
      all.slice(0, 500),
    );
    /** The run in question against a --full run of the same archive: same stdout, same last line. */
    const compare = async (args: string[], checked: number | 'first') => {
      const incremental = await run(args);
      expect(incremental.code, incremental.stderr).toBe(0);
      expect(incremental.stderr).toContain(
        checked === 'first'
          ? 'checking every recall: no earlier run'
          : `checked ${checked} recalls new or changed since`,
      );
      const full = await run([...args, '--full']);
      expect(full.code, full.stderr).toBe(0);
      expect(full.stderr).toContain('checking every recall: --full');
      expect(incremental.stdout).toBe(full.stdout);
      expect(lastLine(incremental.stderr)).toBe(lastLine(full.stderr));
      return full;
    };

    const first = await run(['-f', 'jsonl']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('checking every recall: no earlier run');
    const firstRows = first.stdout.trim().split('\n');
    expect(firstRows.length).toBeGreaterThan(50);
    // Nothing stored since: every row carried over.
    await compare(['-f', 'jsonl'], 0);

    // 100 new recalls; 20 matched ones given a new version that no longer names their products, 10 a new title.
    const matched = [...new Set(firstRows.map((l) => (JSON.parse(l) as Rec).recall_id as number))];
    const gone = emptiedVersions(all, matched.slice(0, 20));
    const retitled = matched.slice(20, 30).map((id) => ({ ...all.find((r) => r.id === id), alert_title: 'Retitled' }));
    await storeRun(archive.db, [...all.slice(500, 600), ...gone, ...retitled]);
    const after = await compare(['-f', 'jsonl'], 130);
    const ids = new Set(
      after.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Rec).recall_id),
    );
    expect(gone.some((r) => ids.has(r.id))).toBe(false);
    expect(all.slice(500, 600).some((r) => ids.has(r.id))).toBe(true);

    // --explain and filters are states of their own; the formats share one (a table sorted for people, csv as written).
    await storeRun(archive.db, all.slice(600, 650));
    await compare(['-f', 'csv', '--explain'], 'first');
    await storeRun(archive.db, all.slice(650, 700));
    await compare(['-f', 'csv', '--explain'], 50);
    await compare(['-f', 'table'], 100);
    await compare(['-f', 'csv'], 0);
    await compare(['-f', 'jsonl', '--severity', 'serious,high'], 'first');
    await storeRun(archive.db, [
      { ...all[5], risk_severity: 'low' },
      { ...all[6], risk_severity: 'serious' },
    ]);
    const filtered = await compare(['-f', 'jsonl', '--severity', 'serious,high'], 1);
    expect(filtered.stdout).not.toContain('"recall_id":1005,');

    // The state: 0600, no password of the archive's URL in it.
    for (const file of stateFiles(cache)) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const password = engine === 'postgres' ? new URL(archive.db).password : '';
      if (password) expect(readFileSync(file, 'utf8')).not.toContain(password);
    }
  });

  it('--since moving forward drops older rows; reaching further back, a changed catalogue or a corrupt state: full runs', async () => {
    const all = generatedRecalls(400, 11);
    const { archive, cache, catalog, run } = await incrementalSetup(engine, generatedCatalogue(all, 300, 5, 3), all, [
      '-f',
      'jsonl',
    ]);
    const same = async (args: string[], note: string) => {
      const r = await run(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(note);
      const full = await run([...args, '--full']);
      expect(r.stdout).toBe(full.stdout);
      expect(lastLine(r.stderr)).toBe(lastLine(full.stderr));
      return r;
    };
    expect((await run(['--since', '2026-06-03T00:00:00Z'])).stderr).toContain('checking every recall');
    const later = await same(['--since', '2026-06-06T00:00:00Z'], 'checked 0 recalls new or changed');
    const published = (later.stdout.trim().split('\n') as string[]).map((l) => (JSON.parse(l) as Rec).published_at);
    expect(published.length).toBeGreaterThan(0);
    expect(published.every((p) => String(p) >= '2026-06-06')).toBe(true);
    await same(['--since', '2026-06-02T00:00:00Z'], 'checking every recall: --since reaches further back');
    await same([], 'checking every recall: --since reaches further back');
    await same([], 'checked 0 recalls new or changed');

    writeFileSync(catalog, `${readFileSync(catalog, 'utf8')}Z1,,,,one more row,,,\n`);
    await same([], 'checking every recall: no earlier run with this catalogue');

    for (const file of stateFiles(cache)) writeFileSync(file, '{"format":1,"key":');
    await same([], 'checking every recall: its state was unreadable');
    await same([], 'checked 0 recalls new or changed');

    // --full is for the archive only.
    const live = await runMain(['match', '--catalog', catalog, '--full']);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('--full works with match --archive');

    // A cache that cannot be written: said, and the run's answer stands.
    const blocked = path.join(path.dirname(catalog), 'not-a-folder');
    writeFileSync(blocked, '');
    const args = ['match', '--catalog', catalog, '--archive', '--db', archive.db, '-f', 'jsonl'];
    const unkept = await runMain(args, { env: { RECALL_FEED_CACHE_DIR: blocked } });
    expect(unkept.code, unkept.stderr).toBe(0);
    expect(unkept.stderr).toContain("could not keep match's state");
    expect(unkept.stdout).toBe((await run([])).stdout);
  });

  it('--open-cases: an incremental run opens the new pairs, as a full run would; a full run after it opens none', async () => {
    const all = generatedRecalls(300, 13);
    const { archive, run } = await incrementalSetup(engine, generatedCatalogue(all, 300, 9, 3), all.slice(0, 200), [
      '-f',
      'jsonl',
      '--open-cases',
    ]);
    const pairs = (stdout: string) =>
      new Set(
        (stdout.trim().split('\n') as string[])
          .map((l) => JSON.parse(l) as Rec)
          .filter((r) => r.level !== 'excluded')
          .map((r) => `${r.sku}\n${r.recall_id}`),
      );
    const cases = (stderr: string) =>
      stderr
        .match(/cases: (\d+) opened · (\d+) pairs? already had one/)
        ?.slice(1)
        .map(Number);
    const first = await run([]);
    expect(first.code, first.stderr).toBe(0);
    const before = pairs(first.stdout);
    expect(cases(first.stderr)).toEqual([before.size, 0]);
    await storeRun(archive.db, all.slice(200, 300));
    const next = await run([]);
    expect(next.stderr).toContain('checked 100 recalls new or changed since');
    const now = pairs(next.stdout);
    const added = [...now].filter((p) => !before.has(p)).length;
    expect(added).toBeGreaterThan(0);
    expect(cases(next.stderr)).toEqual([added, now.size - added]);
    const full = await run(['--full']);
    expect(full.stdout).toBe(next.stdout);
    expect(cases(full.stderr)).toEqual([0, now.size]);
  });

  it("a catalogue big enough to stream: the incremental rows are the full run's", async () => {
    const all = generatedRecalls(300, 17);
    const small = generatedCatalogue(all, 300, 4, 3);
    const big = paddedToStream(small, (i) => `F${i},,,,Qwzt vrk ${i},,,`).text;
    const { archive, run } = await incrementalSetup(engine, big, all.slice(0, 200), ['-f', 'jsonl']);
    expect((await run([])).stderr).toContain('checking every recall: no earlier run');
    await storeRun(archive.db, [...all.slice(200, 300), { ...all[0], alert_title: 'Retitled' }]);
    const next = await run([]);
    expect(next.stderr).toContain('checked 101 recalls new or changed since');
    const full = await run(['--full']);
    expect(next.stdout.split('\n').length).toBeGreaterThan(20);
    expect(next.stdout).toBe(full.stdout);
    expect(lastLine(next.stderr)).toBe(lastLine(full.stderr));
  });
  it('--open-cases over a catalogue big enough to stream: the cases the whole catalogue in memory opens, run after run', async () => {
    const all = generatedRecalls(300, 23);
    const small = generatedCatalogue(all, 300, 11, 3);
    // Rows no recall can touch, without a sku: the whole catalogue in memory would say each is known by its line.
    const big = paddedToStream(small, (i) => `,,,,Qwzt vrk ${i},,,`).text;
    const args = ['-f', 'jsonl', '--open-cases', '--sla', '2wd'];
    const whole = await incrementalSetup(engine, small, all.slice(0, 200), args);
    const streamed = await incrementalSetup(engine, big, all.slice(0, 200), args);
    const casesOf = async (db: string) => {
      const r = await runMain(['cases', '--db', db, '--status', 'all', '-f', 'jsonl']);
      expect(r.code, r.stderr).toBe(0);
      return (r.stdout.trim().split('\n') as string[])
        .map((l) => JSON.parse(l) as Rec)
        .map(({ id: _i, opened_at: _o, updated_at: _u, events: _e, ...c }) => c)
        .sort((a, b) => `${a.catalog_key} ${a.recall_id}`.localeCompare(`${b.catalog_key} ${b.recall_id}`));
    };
    const casesLine = (stderr: string) => stderr.match(/cases: .*/)?.[0];
    const same = async (extra: string[], opened: RegExp) => {
      const [a, b] = [await whole.run(extra), await streamed.run(extra)];
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(b.stdout).toBe(a.stdout);
      expect(casesLine(b.stderr)).toBe(casesLine(a.stderr));
      expect(casesLine(b.stderr)).toMatch(opened);
      // Streamed, not held whole: the keys are worked out for the rows that found a recall, and those all have one.
      expect(b.stderr).not.toContain('no sku');
      const [ca, cb] = [await casesOf(whole.archive.db), await casesOf(streamed.archive.db)];
      expect(ca.length).toBeGreaterThan(10);
      expect(cb).toEqual(ca);
    };
    await same([], /^cases: [1-9]\d* opened · 0 pairs already had one$/);
    // A day later: new recalls and a new version, checked incrementally; then a full run that opens nothing.
    await storeRun(whole.archive.db, [...all.slice(200, 300), { ...all[0], alert_title: 'Retitled' }]);
    await storeRun(streamed.archive.db, [...all.slice(200, 300), { ...all[0], alert_title: 'Retitled' }]);
    await same([], /^cases: [1-9]\d* opened · [1-9]\d* pairs already had one$/);
    await same(['--full'], /^cases: 0 opened · [1-9]\d* pairs already had one$/);
  });

  it("a catalogue touched, its bytes the same: still incremental; a note of its stamp that lies: a full run's answer", async () => {
    const all = generatedRecalls(300, 19);
    const { archive, cache, catalog, run } = await incrementalSetup(
      engine,
      generatedCatalogue(all, 300, 6, 3),
      all.slice(0, 200),
      ['-f', 'jsonl'],
    );
    const same = async (note: string) => {
      const r = await run([]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(note);
      const full = await run(['--full']);
      expect(r.stdout).toBe(full.stdout);
      expect(lastLine(r.stderr)).toBe(lastLine(full.stderr));
      return r;
    };
    const noteOf = () => stateFiles(cache).filter((f) => path.basename(f).startsWith('catalogue-'));
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect((await run([])).stderr).toContain('checking every recall: no earlier run');
    const before = readFileSync(catalog, 'utf8');
    const [note] = noteOf();
    expect(JSON.parse(readFileSync(note as string, 'utf8')).sha256).toBe(sha(before));
    expect(statSync(note as string).mode & 0o777).toBe(0o600);

    // Touched (a new modification time, the same bytes): the state still applies, and the note takes the new stamp.
    const noted = readFileSync(note as string, 'utf8');
    utimesSync(catalog, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    await storeRun(archive.db, all.slice(200, 250));
    await same('checked 50 recalls new or changed since');
    expect(readFileSync(note as string, 'utf8')).not.toBe(noted);
    expect(JSON.parse(readFileSync(note as string, 'utf8')).sha256).toBe(sha(before));

    // A state for each of two catalogues, and a note that names the old bytes under the stamp of the new (a file
    // rewritten after its stamp was taken): the note is followed (else the new bytes' state would be used), and the
    // bytes read decide, with nothing stored since (hashed) and with new recalls (streamed).
    const grown = `${before}Z1,,,,one more row,,,\n`;
    writeFileSync(catalog, grown);
    await same('checking every recall: no earlier run with this catalogue');
    const lie = () => {
      const s = statSync(catalog, { bigint: true });
      const stamp = [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs].map(String);
      expect(JSON.parse(readFileSync(note as string, 'utf8'))).toEqual({ stamp, sha256: sha(grown) });
      writeFileSync(note as string, JSON.stringify({ stamp, sha256: sha(before) }));
    };
    lie();
    await same('checking every recall: no earlier run with this catalogue');
    await same('checked 0 recalls new or changed since');
    lie();
    await storeRun(archive.db, all.slice(250, 300));
    await same('checking every recall: no earlier run with this catalogue');
    await storeRun(archive.db, [{ ...all[0], alert_title: 'Retitled' }]);
    await same('checked 1 recalls new or changed since');
  });
  it("--sources and filters answered in SQL and in JavaScript: the recalls stored since, selected as a full run's", async () => {
    const all = generatedRecalls(300, 29);
    const { archive, run } = await incrementalSetup(engine, generatedCatalogue(all, 300, 8, 3), all.slice(0, 200), [
      '-f',
      'jsonl',
    ]);
    const filters = [
      ['--sources', 'us_cpsc'],
      ['--severity', 'serious,high', '--grep', 'a'],
      ['--sources', 'rappel_conso', '--severity', 'low,medium'],
    ];
    for (const args of filters) expect((await run(args)).stderr).toContain('checking every recall: no earlier run');
    // New recalls of both sources, and new versions that move old ones into or out of the filters' and sources' reach.
    const moved = all.slice(0, 40).map((r, i) => ({
      ...r,
      data_source: i % 3 === 0 ? (r.data_source === 'us_cpsc' ? 'rappel_conso' : 'us_cpsc') : r.data_source,
      risk_severity: ['serious', 'low', 'high', 'medium'][i % 4],
    }));
    await storeRun(archive.db, [...all.slice(200, 300), ...moved]);
    for (const args of filters) {
      const incremental = await run(args);
      expect(incremental.code, incremental.stderr).toBe(0);
      const checked = Number(incremental.stderr.match(/checked (\d+) recalls new or changed since/)?.[1]);
      expect(checked, args.join(' ')).toBeGreaterThan(0);
      expect(checked, args.join(' ')).toBeLessThan(140);
      const full = await run([...args, '--full']);
      expect(incremental.stdout, args.join(' ')).toBe(full.stdout);
      expect(lastLine(incremental.stderr)).toBe(lastLine(full.stderr));
    }
  });
});
