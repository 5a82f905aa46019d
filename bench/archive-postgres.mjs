// The archive on PostgreSQL against SQLite, side by side: sync of 100k records, query --search on them, query memory 10k -> 100k.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { postgresBinDir, startCluster } from '../test/helpers/pg-cluster.mjs';
import {
  BIN,
  Claims,
  cleanEnv,
  forkSandbox,
  GENEROUS_LIMITS,
  mb,
  median,
  ratio,
  requireBuild,
  run,
  runCliMeasured,
  table,
  tempDir,
} from './lib/common.mjs';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const SMALL = RECORDS / 10;
const SYNC_TARGET = 1.5;
const SEARCH_TARGET = 2;
/** Peak RSS at 10× the rows may grow by less than half: the rows stream through a cursor. */
const FLAT_LIMIT = 1.5;
const ROUNDS = 2;
const STARTS = 7;
const RUN_TIMEOUT_MS = 300_000;
const SEARCH = 'listeria';

const claims = new Claims('archive-postgres');
const sandboxes = [];
let cluster;
const fmt = (n) => n.toLocaleString('en-US');

/** A new empty database on the cluster; its URL. */
async function database(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

try {
  requireBuild();
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (no pg_config, no /usr/lib/postgresql/*/bin)');
  cluster = await startCluster(bin);
  const dir = tempDir('archive-pg');
  const [big, small] = await Promise.all([
    forkSandbox({ port: 0, recordCount: RECORDS, rateLimits: GENEROUS_LIMITS }, { timeoutMs: 120_000 }),
    forkSandbox({ port: 0, recordCount: SMALL, rateLimits: GENEROUS_LIMITS }),
  ]);
  sandboxes.push(big, small);
  const env = cleanEnv({ HOME: dir, RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'), RECALL_FEED_API_KEY: big.key });
  const cli = async (args, what) => {
    console.log(`  ${what}…`);
    const res = await runCliMeasured(args, { env, timeoutMs: RUN_TIMEOUT_MS, dir });
    if (res.code !== 0) throw new Error(`${what} exited ${res.code}: ${res.stderr.trim().slice(0, 400)}`);
    return res;
  };

  // 1. sync into SQLite and into PostgreSQL, alternating so that both see the same machine load.
  const sqliteMs = [];
  const pgMs = [];
  const file = path.join(dir, 'big.db');
  let url;
  for (let round = 0; round < ROUNDS; round++) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    sqliteMs.push((await cli(['--base-url', big.url, 'sync', '--db', file], 'sync into SQLite')).ms);
    url = await database(cluster.url, 'bench_big');
    pgMs.push((await cli(['--base-url', big.url, 'sync', '--db', url], 'sync into PostgreSQL')).ms);
  }
  claims.check(
    `sync of ${fmt(RECORDS)} records into PostgreSQL within ${SYNC_TARGET}× the same into SQLite`,
    median(pgMs) / median(sqliteMs) <= SYNC_TARGET,
    ratio(median(pgMs), median(sqliteMs)),
  );

  // 2. query --search on both, interleaved (stdout to a file: a pipe would be part of the measure).
  const searchSqlite = [];
  const searchPg = [];
  const found = {};
  const out = path.join(dir, 'query.jsonl');
  for (let i = 0; i < STARTS; i++) {
    for (const [db, into, engine] of [
      [file, searchSqlite, 'SQLite'],
      [url, searchPg, 'PostgreSQL'],
    ]) {
      const res = await run(
        process.execPath,
        [BIN, 'query', '--db', db, '--search', SEARCH, '-f', 'jsonl', '-o', out],
        { env },
      );
      if (res.code !== 0) throw new Error(`query --search exited ${res.code}: ${res.stderr}`);
      found[engine] = readFileSync(out, 'utf8').split('\n').length - 1;
      into.push(res.ms);
    }
  }
  // The sandbox's 24-hour window moves between the two syncs, so the archives may differ by a few recalls at
  // its edges; the e2e tests (archive-engines.test.ts) compare the engines on the same data byte for byte.
  claims.note(`query --search found ${fmt(found.SQLite)} recalls in SQLite, ${fmt(found.PostgreSQL)} in PostgreSQL`);
  claims.check(
    `query --search on ${fmt(RECORDS)} records: PostgreSQL within ${SEARCH_TARGET}× SQLite`,
    median(searchPg) / median(searchSqlite) <= SEARCH_TARGET,
    ratio(median(searchPg), median(searchSqlite)),
  );

  // 3. query -f jsonl from PostgreSQL at 10k and 100k rows: peak RSS.
  const smallUrl = await database(cluster.url, 'bench_small');
  await cli(['--base-url', small.url, 'sync', '--db', smallUrl], 'small sync into PostgreSQL');
  const peaks = {};
  for (const [n, db] of [
    [SMALL, smallUrl],
    [RECORDS, url],
  ]) {
    const res = await cli(['query', '--db', db, '-f', 'jsonl', '-o', out], `query ${fmt(n)} from PostgreSQL`);
    peaks[n] = { rssKB: res.usage.maxRssKB, ms: res.ms, lines: readFileSync(out, 'utf8').split('\n').length - 1 };
    rmSync(out, { force: true });
  }
  claims.check(
    `query from PostgreSQL: peak RSS at ${fmt(RECORDS)} rows < ${FLAT_LIMIT}× that at ${fmt(SMALL)}`,
    peaks[RECORDS].rssKB / peaks[SMALL].rssKB < FLAT_LIMIT && peaks[RECORDS].lines === RECORDS,
    `${mb(peaks[SMALL].rssKB * 1024)} -> ${mb(peaks[RECORDS].rssKB * 1024)}, ${ratio(peaks[RECORDS].rssKB, peaks[SMALL].rssKB)}; ${fmt(peaks[RECORDS].lines)} rows`,
  );

  console.log(
    `\n${table(
      ['what', 'SQLite', 'PostgreSQL', 'ratio'],
      [
        [
          `sync ${fmt(RECORDS)} into a new archive`,
          `${(median(sqliteMs) / 1000).toFixed(1)} s`,
          `${(median(pgMs) / 1000).toFixed(1)} s`,
          ratio(median(pgMs), median(sqliteMs)),
        ],
        [
          `query --search ${SEARCH}`,
          `${median(searchSqlite).toFixed(0)} ms`,
          `${median(searchPg).toFixed(0)} ms`,
          ratio(median(searchPg), median(searchSqlite)),
        ],
        [
          `query -f jsonl, ${fmt(SMALL)} rows`,
          '',
          `${(peaks[SMALL].ms / 1000).toFixed(1)} s, ${mb(peaks[SMALL].rssKB * 1024)}`,
          '',
        ],
        [
          `query -f jsonl, ${fmt(RECORDS)} rows`,
          '',
          `${(peaks[RECORDS].ms / 1000).toFixed(1)} s, ${mb(peaks[RECORDS].rssKB * 1024)}`,
          '',
        ],
      ],
    )}`,
  );
  console.log('Wall times with the sandbox and the PostgreSQL server on the same cores; medians of the runs.');
  claims.finish(
    `sync pg/sqlite ${ratio(median(pgMs), median(sqliteMs))}, search pg/sqlite ${ratio(median(searchPg), median(searchSqlite))}, query RSS 100k/10k ${ratio(peaks[RECORDS].rssKB, peaks[SMALL].rssKB)}`,
  );
} catch (err) {
  claims.crash(err);
} finally {
  for (const s of sandboxes) await s.close().catch(() => {});
  cluster?.stop();
}
