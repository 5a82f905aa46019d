// The archive: sync of 100k records (limits far above what it sends, so nobody paces) against `feed -f jsonl` of the same; query of 100k rows at flat memory;
// `query --search` on a 100k-record archive against `recall-feed --version`.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
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
  BIN,
} from './lib/common.mjs';

const RECORDS = 100_000;
const SMALL = 10_000;
const SYNC_TARGET = 1.3;
const SEARCH_TARGET = 2;
/** Peak RSS at 10× the rows may grow by less than half: the rows stream, they do not pile up. */
const FLAT_LIMIT = 1.5;
const ROUNDS = 2;
const STARTS = 7;
const RUN_TIMEOUT_MS = 240_000;
/** A word in about one recall in thirty (French food recalls): a real result set, not an empty one. */
const SEARCH = 'listeria';

const claims = new Claims('archive');
const sandboxes = [];
const countLines = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).length;

try {
  requireBuild();
  const dir = tempDir('archive');
  const t0 = performance.now();
  const [big, small] = await Promise.all([
    forkSandbox({ port: 0, recordCount: RECORDS, rateLimits: GENEROUS_LIMITS }, { timeoutMs: 120_000 }),
    forkSandbox({ port: 0, recordCount: SMALL, rateLimits: GENEROUS_LIMITS }),
  ]);
  sandboxes.push(big, small);
  console.log(
    `sandboxes of ${RECORDS.toLocaleString('en-US')} and ${SMALL.toLocaleString('en-US')} records ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const env = cleanEnv({ HOME: dir, RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'), RECALL_FEED_API_KEY: big.key });
  const cli = async (args, what) => {
    console.log(`  ${what}…`);
    const res = await runCliMeasured(args, { env, timeoutMs: RUN_TIMEOUT_MS, dir });
    if (res.code !== 0) throw new Error(`${what} exited ${res.code}: ${res.stderr.trim().slice(0, 400)}`);
    return res;
  };

  // 1. sync against feed, alternating so that both see the same machine load.
  const feedMs = [];
  const syncMs = [];
  const bigDb = path.join(dir, 'big.db');
  const jsonl = path.join(dir, 'feed.jsonl');
  for (let round = 0; round < ROUNDS; round++) {
    feedMs.push((await cli(['--base-url', big.url, 'feed', '-f', 'jsonl', '-o', jsonl], 'feed')).ms);
    rmSync(bigDb, { force: true });
    rmSync(`${bigDb}-wal`, { force: true });
    rmSync(`${bigDb}-shm`, { force: true });
    syncMs.push((await cli(['--base-url', big.url, 'sync', '--db', bigDb], 'sync')).ms);
  }
  const resyncMs = (await cli(['--base-url', big.url, 'sync', '--db', bigDb], 'second sync')).ms;
  const syncRatio = median(syncMs) / median(feedMs);
  claims.check(
    `sync of ${RECORDS.toLocaleString('en-US')} records within ${SYNC_TARGET}× feed -f jsonl`,
    syncRatio <= SYNC_TARGET,
    `${ratio(median(syncMs), median(feedMs))}`,
  );

  // 2. query to jsonl at 10k and 100k rows: peak RSS.
  const smallDb = path.join(dir, 'small.db');
  await cli(['--base-url', small.url, 'sync', '--db', smallDb], 'small sync');
  const out = path.join(dir, 'query.jsonl');
  const peaks = {};
  for (const [n, db] of [
    [SMALL, smallDb],
    [RECORDS, bigDb],
  ]) {
    const res = await cli(['query', '--db', db, '-f', 'jsonl', '-o', out], `query ${n}`);
    peaks[n] = { rssKB: res.usage.maxRssKB, ms: res.ms, lines: countLines(out) };
    rmSync(out, { force: true });
  }
  claims.check(
    `query writes every row (${SMALL.toLocaleString('en-US')} and ${RECORDS.toLocaleString('en-US')})`,
    peaks[SMALL].lines === SMALL && peaks[RECORDS].lines === countLines(jsonl),
    `${peaks[SMALL].lines} and ${peaks[RECORDS].lines} lines; feed wrote ${countLines(jsonl)}`,
  );
  const growth = peaks[RECORDS].rssKB / peaks[SMALL].rssKB;
  claims.check(
    `query peak RSS at 100k rows < ${FLAT_LIMIT}× that at 10k`,
    growth < FLAT_LIMIT,
    `${mb(peaks[SMALL].rssKB * 1024)} -> ${mb(peaks[RECORDS].rssKB * 1024)}, ${ratio(peaks[RECORDS].rssKB, peaks[SMALL].rssKB)}`,
  );

  // 3. query --search against --version, interleaved.
  const versionMs = [];
  const searchMs = [];
  let found = 0;
  for (let i = 0; i < STARTS; i++) {
    versionMs.push((await run(process.execPath, [BIN, '--version'], { env })).ms);
    const res = await run(process.execPath, [BIN, 'query', '--db', bigDb, '--search', SEARCH, '-f', 'jsonl'], {
      env,
      captureStdout: true,
    });
    if (res.code !== 0) throw new Error(`query --search exited ${res.code}: ${res.stderr}`);
    found = res.stdout.split('\n').filter(Boolean).length;
    searchMs.push(res.ms);
  }
  const searchRatio = median(searchMs) / median(versionMs);
  claims.check(
    `query --search on ${RECORDS.toLocaleString('en-US')} records within ${SEARCH_TARGET}× --version`,
    searchRatio <= SEARCH_TARGET,
    `${ratio(median(searchMs), median(versionMs))}, ${found} recalls found`,
  );

  console.log(
    `\n${table(
      ['what', 'median', 'vs'],
      [
        [`feed -f jsonl -o, ${RECORDS.toLocaleString('en-US')} records`, `${(median(feedMs) / 1000).toFixed(1)} s`, ''],
        [
          `sync into a new archive`,
          `${(median(syncMs) / 1000).toFixed(1)} s`,
          `${ratio(median(syncMs), median(feedMs))} feed`,
        ],
        ['sync again (all unchanged)', `${(resyncMs / 1000).toFixed(1)} s`, `${ratio(resyncMs, median(feedMs))} feed`],
        [
          `query -f jsonl -o, ${SMALL.toLocaleString('en-US')} rows`,
          `${(peaks[SMALL].ms / 1000).toFixed(1)} s`,
          `peak ${mb(peaks[SMALL].rssKB * 1024)}`,
        ],
        [
          `query -f jsonl -o, ${RECORDS.toLocaleString('en-US')} rows`,
          `${(peaks[RECORDS].ms / 1000).toFixed(1)} s`,
          `peak ${mb(peaks[RECORDS].rssKB * 1024)}`,
        ],
        ['recall-feed --version', `${median(versionMs).toFixed(0)} ms`, ''],
        [
          `query --search ${SEARCH} (${found} rows)`,
          `${median(searchMs).toFixed(0)} ms`,
          `${ratio(median(searchMs), median(versionMs))} --version`,
        ],
      ],
    )}`,
  );
  console.log('Wall times with the sandbox answering in its own process on the same cores; medians of the runs.');
  claims.finish(
    `sync/feed ${ratio(median(syncMs), median(feedMs))}, query RSS 100k/10k ${ratio(peaks[RECORDS].rssKB, peaks[SMALL].rssKB)}, search/--version ${ratio(median(searchMs), median(versionMs))}`,
  );
} catch (err) {
  claims.crash(err);
} finally {
  for (const s of sandboxes) await s.close().catch(() => {});
}
