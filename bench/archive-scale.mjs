// A large archive (200,000 recalls, or 1,000,000 with --million) built through the store's own upsert, on SQLite and PostgreSQL (--sqlite-only, --postgres-only): stats, a 20-row search and a filtered query, each as a ratio to its baseline.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import pg from 'pg';
import { postgresBinDir, startCluster } from '../test/helpers/pg-cluster.mjs';
import { Claims, median, ROOT, ratio, requireBuild, table, tempDir } from './lib/common.mjs';
import { CATALOGUE_ROWS, DAILY_NEW, DAILY_UPDATED, incrementalMatchFigure } from './lib/archive-match.mjs';

const MILLION = process.argv.includes('--million');
/** PostgreSQL alone (its build is the long one to repeat); --sqlite-only is the other half. */
const PG_ONLY = process.argv.includes('--postgres-only');
const RECORDS = Number(process.env.BENCH_RECORDS ?? (MILLION ? 1_000_000 : 200_000));
const PAGE = 1000;
const ROUNDS = 5;
/** The goals at a million recalls; stats is held to them in proportion below that. */
const STATS_GOAL_MS_AT_1M = 2000;
const SEARCH_GOAL_MS = 200;
const SEARCH = 'listeria';
const BY = ['source', 'severity', 'day'];
const YEAR_MS = 365 * 24 * 3_600_000;
const START = Date.parse('2026-11-01T00:00:00Z');
/** Days of the incremental match figure (each a small sync, an incremental run and a --full run); 0 skips it. */
const MATCH_DAYS = Number(process.env.BENCH_MATCH_DAYS ?? 3);
const MATCH_GOAL_MS = 5000;

const claims = new Claims('archive-scale');
const cleanups = [];
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The archive's code as the CLI has it, bundled from src (dist/cli is a chunked bundle with no archive entry). */
async function archiveModule() {
  const out = path.join(ROOT, 'node_modules', '.cache', 'recall-feed-bench', 'archive.mjs');
  mkdirSync(path.dirname(out), { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, 'src', 'archive', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    packages: 'external',
    logLevel: 'error',
  });
  return import(out);
}

/** Recall `j` of the sandbox's generator (realistic field sizes): the archive's are published over the past year, later ones since. */
async function recallMaker(count) {
  const { generateArrival } = await import('../dist/sandbox/data.js');
  return (j) =>
    generateArrival(7, j, 1_000_000 + j, j < count ? START - YEAR_MS + Math.floor((j / count) * YEAR_MS) : START + j);
}

async function* pages(count) {
  const recall = await recallMaker(count);
  for (let i = 0; i < count; i += PAGE) {
    const page = [];
    for (let j = i; j < Math.min(i + PAGE, count); j++) page.push(recall(j));
    yield page;
  }
}

async function fill(archive, what) {
  const started = performance.now();
  const run = await archive.beginRun({ bench: true }, START);
  let bytes = 0;
  let n = 0;
  for await (const page of pages(RECORDS)) {
    if (n === 0) bytes = page.reduce((s, r) => s + JSON.stringify(r).length, 0) / page.length;
    await archive.upsertPage(page, run);
    n += page.length;
    if (n % 100_000 === 0) console.log(`  ${what}: ${fmt(n)} recalls stored (load ${load()})`);
  }
  await archive.finishRun(run, 'ok', START);
  return { ms: performance.now() - started, bytes };
}

/** Median wall time of `fn` over ROUNDS, each figure and its baseline alternating so that both see the same load. */
async function sideBySide(fn, baseline) {
  const a = [];
  const b = [];
  await fn();
  await baseline();
  for (let i = 0; i < ROUNDS; i++) {
    for (const [list, f] of i % 2
      ? [
          [b, baseline],
          [a, fn],
        ]
      : [
          [a, fn],
          [b, baseline],
        ]) {
      const t = performance.now();
      await f();
      list.push(performance.now() - t);
    }
  }
  return { ms: median(a), base: median(b) };
}

const RAW_BASELINE = 'the same counts from raw JSON';

async function count(iterable) {
  let n = 0;
  for await (const _ of iterable) n++;
  return n;
}

/**
 * The three figures on one archive. `rawStats` is the baseline for stats: the same counts from the raw JSON, as before;
 * `scanStats`, where given, the same counts as the engine's previous schema took them (PostgreSQL 5: recalls' rows).
 */
async function measure(engine, archive, rawStats, scanStats) {
  const statsFig = await sideBySide(() => archive.stats({}, BY), rawStats);
  const scanFig = scanStats && (await sideBySide(() => archive.stats({}, BY), scanStats));
  const searchFig = await sideBySide(
    () => count(archive.records({ search: SEARCH, limit: 20 })),
    () => count(archive.records({ limit: 20 })),
  );
  const filterFig = await sideBySide(
    () => count(archive.records({ filter: { severity: ['serious'], risk: ['chemical'] }, limit: 100 })),
    () => count(archive.records({ limit: 100 })),
  );
  const found = await count(archive.records({ search: SEARCH, limit: 20 }));
  claims.check(`${engine}: the search finds 20 recalls`, found === 20, `${found}`);
  return [
    [engine, 'stats --by source,severity,day', statsFig, RAW_BASELINE],
    ...(scanFig ? [[engine, 'stats --by source,severity,day', scanFig, "schema 5's query (recalls' rows)"]] : []),
    [engine, `20-row --search ${SEARCH}`, searchFig, '20 rows, no search'],
    [engine, 'query --severity serious --risk chemical, 100 rows', filterFig, '100 rows, no filter'],
  ];
}

/** The counts as stats made them before the stat_* columns: json_extract over every record's raw JSON. */
function sqliteRawStats(file) {
  const db = new Database(file, { readonly: true });
  cleanups.push(() => db.close());
  const q = [
    "SELECT json_extract(raw, '$.data_source'), count(*) FROM recalls GROUP BY 1",
    "SELECT json_extract(raw, '$.risk_severity'), count(*) FROM recalls GROUP BY 1",
    "SELECT strftime('%Y-%m-%d', published_us / 1000000, 'unixepoch'), count(*) FROM recalls GROUP BY 1",
  ].map((sql) => db.prepare(sql).raw());
  return async () => {
    for (const s of q) s.all();
  };
}

async function pgRawStats(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  const j = 'r.raw::jsonb';
  const q = [
    `SELECT ${j} -> 'data_source', count(*) FROM recall_feed.recalls r GROUP BY 1`,
    `SELECT ${j} -> 'risk_severity', count(*) FROM recall_feed.recalls r GROUP BY 1`,
    `SELECT to_char(timestamp 'epoch' + (r.published_us / 1000000) * interval '1 second', 'YYYY-MM-DD'), count(*) FROM recall_feed.recalls r GROUP BY 1`,
  ];
  return async () => {
    for (const s of q) await client.query(s);
  };
}

/** The counts as schema 5 took them: one grouping-sets scan of recalls' wide rows, each row's day formatted. */
async function pgSchema5Stats(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  const day = `to_jsonb(to_char(timestamp 'epoch' + (r.published_us / 1000000) * interval '1 second', 'YYYY-MM-DD'))`;
  const sql = `SELECT GROUPING(f0) AS g0, f0, GROUPING(f1) AS g1, f1, GROUPING(f2) AS g2, f2, count(*)::int AS count
    FROM (SELECT r.data_source AS f0, r.stat_severity AS f1, ${day} AS f2 FROM recall_feed.recalls r) AS t
    GROUP BY GROUPING SETS ((f0), (f1), (f2), ())`;
  return async () => {
    await client.query(sql);
  };
}

async function pgUrl() {
  if (process.env.RECALL_FEED_TEST_PG) return process.env.RECALL_FEED_TEST_PG;
  const bin = postgresBinDir();
  if (!bin) return undefined;
  const cluster = await startCluster(bin);
  cleanups.push(() => cluster.stop());
  return cluster.url;
}

async function database(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

try {
  requireBuild();
  console.log(`archive-scale: ${fmt(RECORDS)} recalls, ${os.availableParallelism()} CPUs, load ${load()}`);
  const { openArchive } = await archiveModule();
  const rows = [];
  const builds = [];
  const dir = tempDir('archive-scale');
  const matchRows = [];
  const matchFigure = async (engine, db) =>
    MATCH_DAYS > 0 &&
    matchRows.push([
      engine,
      await incrementalMatchFigure({
        engine,
        db,
        open: () => openArchive(db, { create: false }),
        recall: await recallMaker(RECORDS),
        records: RECORDS,
        rounds: MATCH_DAYS,
        dir,
        claims,
        load,
      }),
    ]);
  if (!PG_ONLY) {
    const file = path.join(dir, 'scale.db');
    const sqlite = await openArchive(file, { create: true });
    const built = await fill(sqlite, 'SQLite');
    await sqlite.close();
    builds.push(`SQLite built in ${(built.ms / 1000).toFixed(0)} s`);
    console.log(
      `  SQLite: built in ${(built.ms / 1000).toFixed(0)} s, ${fmt(built.bytes)} bytes of JSON a recall on average (load ${load()})`,
    );
    const reader = await openArchive(file, { readOnly: true });
    cleanups.push(() => reader.close());
    rows.push(...(await measure('SQLite', reader, sqliteRawStats(file))));
    await matchFigure('SQLite', file);
  }

  const admin = process.argv.includes('--sqlite-only') ? undefined : await pgUrl();
  if (admin) {
    const url = await database(admin, 'bench_scale');
    const writer = await openArchive(url, { create: true });
    const pgBuilt = await fill(writer, 'PostgreSQL');
    await writer.close();
    builds.push(`PostgreSQL built in ${(pgBuilt.ms / 1000).toFixed(0)} s`);
    console.log(`  PostgreSQL: built in ${(pgBuilt.ms / 1000).toFixed(0)} s (load ${load()})`);
    const pgReader = await openArchive(url, { readOnly: true });
    cleanups.push(() => pgReader.close());
    rows.push(...(await measure('PostgreSQL', pgReader, await pgRawStats(url), await pgSchema5Stats(url))));
    await pgReader.close();
    await matchFigure('PostgreSQL', url);
  } else claims.note('PostgreSQL skipped: --sqlite-only, or no RECALL_FEED_TEST_PG and no local installation');

  console.log(`\n${fmt(RECORDS)} recalls, medians of ${ROUNDS} (load ${load()}):`);
  console.log(
    table(
      ['engine', 'figure', 'ms', 'baseline', 'baseline ms', 'ratio'],
      rows.map(([engine, what, f, base]) => [
        engine,
        what,
        f.ms.toFixed(1),
        base,
        f.base.toFixed(1),
        ratio(f.ms, f.base),
      ]),
    ),
  );
  if (matchRows.length > 0) {
    console.log(
      `\nmatch --archive of ${fmt(CATALOGUE_ROWS)} catalogue rows after a day's sync (${fmt(DAILY_NEW)} new, ${fmt(DAILY_UPDATED)} new versions), medians of ${MATCH_DAYS} days (load ${load()}):`,
    );
    console.log(
      table(
        ['engine', 'incremental s', 'CPU s', 'peak RSS MB', '--full s', '--full CPU s', 'ratio'],
        matchRows.map(([engine, f]) => [
          engine,
          (f.ms / 1000).toFixed(2),
          f.cpu.toFixed(2),
          f.rssMB.toFixed(0),
          (f.base / 1000).toFixed(1),
          f.fullCpu.toFixed(1),
          f.ratio,
        ]),
      ),
    );
    for (const [engine, f] of matchRows)
      claims.check(
        `${engine}: a daily incremental match --archive of ${fmt(CATALOGUE_ROWS)} rows at most ${MATCH_GOAL_MS / 1000} s`,
        f.ms <= MATCH_GOAL_MS,
        `${(f.ms / 1000).toFixed(2)} s (${f.ratio} the --full run)`,
      );
  }
  const statsGoal = (STATS_GOAL_MS_AT_1M * RECORDS) / 1_000_000;
  for (const [engine, what, f, base] of rows) {
    if (what.startsWith('stats') && base === RAW_BASELINE) {
      claims.check(
        `${engine}: stats at most ${fmt(statsGoal)} ms (2 s at 1M, in proportion)`,
        f.ms <= statsGoal,
        `${f.ms.toFixed(0)} ms`,
      );
      claims.check(
        `${engine}: stats from columns at most 0.5× the raw JSON's`,
        f.ms <= f.base * 0.5,
        ratio(f.ms, f.base),
      );
    }
    if (what.startsWith('20-row'))
      claims.check(
        `${engine}: a 20-row search at most ${SEARCH_GOAL_MS} ms`,
        f.ms <= SEARCH_GOAL_MS,
        `${f.ms.toFixed(0)} ms`,
      );
  }
  const summary = rows
    .filter(([, w]) => w.startsWith('stats'))
    .map(
      ([e, , f, base]) =>
        `${e} stats ${f.ms.toFixed(0)} ms (${ratio(f.ms, f.base)} ${base === RAW_BASELINE ? 'raw' : 'schema 5'})`,
    );
  claims.finish(`${fmt(RECORDS)} recalls: ${[...summary, ...builds].join(', ')}; load ${load()}`);
} catch (err) {
  claims.crash(err);
} finally {
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch {}
  }
}
