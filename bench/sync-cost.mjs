// sync's CPU against sqlite-utils (Debian's package) inserting the same records from a local file with full-text search, side by side.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Claims,
  cleanEnv,
  forkSandbox,
  GENEROUS_LIMITS,
  median,
  ratio,
  requireBuild,
  run,
  runCliMeasured,
  table,
  tempDir,
} from './lib/common.mjs';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Another build's launcher (bin/recall-feed.cjs of a checkout built with `npm run build`), synced in each round too: before and after side by side, at the same load. */
const BASELINE_BIN = process.env.BENCH_BASELINE_BIN;
/** Issue 37's goal: sync's CPU at most this share of sqlite-utils' for insert + FTS of the same records. */
const TARGET = 0.8;
/** The fields our archive indexes for full-text search (ftsValues in src/archive/record-columns.ts). */
const FTS_FIELDS = [
  'alert_title',
  'alert_summary',
  'product_name',
  'product_brand',
  'product_model_numbers',
  'hazard_description',
  'product_description',
  'packaging_description',
];
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const secs = (us) => (us / 1e6).toFixed(2);

/** sqlite-utils, in Python: the CPU (user + system, µs) of its children and the largest one's peak RSS (KiB), by Python's own getrusage. */
const MEASURE_CHILDREN = `
import resource, subprocess, sys
for argv in sys.argv[1].split('\\x1f'):
    subprocess.run(argv.split('\\x1e'), check=True, stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(int((r.ru_utime + r.ru_stime) * 1e6), r.ru_maxrss)
`;

function sqliteUtils(db, jsonl) {
  const insert = ['sqlite-utils', 'insert', db, 'recalls', jsonl, '--nl', '--pk', 'id'];
  const fts = ['sqlite-utils', 'enable-fts', db, 'recalls', ...FTS_FIELDS, '--create-triggers'];
  const started = performance.now();
  const out = execFileSync('python3', ['-c', MEASURE_CHILDREN, [insert, fts].map((a) => a.join('\x1e')).join('\x1f')], {
    encoding: 'utf8',
  });
  const [cpuUs, maxRssKB] = out.trim().split(' ').map(Number);
  return { cpuUs, maxRssKB, ms: performance.now() - started };
}

const claims = new Claims('sync-cost');
let sandbox;
try {
  requireBuild();
  try {
    execFileSync('sqlite-utils', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('sqlite-utils is not installed: apt-get install sqlite-utils (Debian) to run this benchmark');
    process.exit(2);
  }
  const dir = tempDir('sync-cost');
  sandbox = await forkSandbox({ port: 0, recordCount: RECORDS, rateLimits: GENEROUS_LIMITS }, { timeoutMs: 120_000 });
  const env = cleanEnv({
    HOME: dir,
    RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'),
    RECALL_FEED_API_KEY: sandbox.key,
  });
  const jsonl = path.join(dir, 'records.jsonl');
  const fed = await run(
    process.execPath,
    [path.join('bin', 'recall-feed.cjs'), '--base-url', sandbox.url, 'feed', '-f', 'jsonl', '-o', jsonl],
    {
      env,
      timeoutMs: 240_000,
    },
  );
  if (fed.code !== 0) throw new Error(`feed exited ${fed.code}: ${fed.stderr.slice(0, 400)}`);
  console.log(`${RECORDS.toLocaleString('en-US')} records from the sandbox in ${jsonl}; load ${load()}`);

  const ours = [];
  const theirs = [];
  const baseline = [];
  const fresh = (db) => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(db + suffix, { force: true });
  };
  const db = path.join(dir, 'ours.db');
  /** A sync of the sandbox into a new archive by `bin` (this build's unless given): its CPU, peak RSS and wall time. */
  const syncInto = async (name, bin) => {
    fresh(db);
    const res = await runCliMeasured(['--base-url', sandbox.url, 'sync', '--db', db], {
      env,
      timeoutMs: 240_000,
      dir,
      ...(bin && { bin }),
    });
    if (res.code !== 0) throw new Error(`${name} exited ${res.code}: ${res.stderr.slice(0, 400)}`);
    return { cpuUs: res.usage.userUs + res.usage.systemUs, maxRssKB: res.usage.maxRssKB, ms: res.ms };
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating, so that both see the same machine load.
    ours.push(await syncInto('sync'));
    if (BASELINE_BIN) baseline.push(await syncInto("the baseline's sync", BASELINE_BIN));
    const theirsDb = path.join(dir, 'theirs.db');
    fresh(theirsDb);
    theirs.push(sqliteUtils(theirsDb, jsonl));
    const was = BASELINE_BIN ? ` (baseline ${secs(baseline.at(-1).cpuUs)} s)` : '';
    console.log(
      `  round ${round + 1}: sync ${secs(ours.at(-1).cpuUs)} s CPU${was}, sqlite-utils ${secs(theirs.at(-1).cpuUs)} s CPU`,
    );
  }
  const cpu = (runs) => median(runs.map((r) => r.cpuUs));
  const oursCpu = cpu(ours);
  const theirsCpu = cpu(theirs);
  // The least of the rounds beside the median: on a shared machine the other jobs only ever add to a run's CPU.
  const row = (name, runs) => [
    name,
    `${secs(cpu(runs))} s`,
    `${secs(Math.min(...runs.map((r) => r.cpuUs)))} s`,
    `${(median(runs.map((r) => r.ms)) / 1000).toFixed(2)} s`,
    `${(median(runs.map((r) => r.maxRssKB)) / 1024).toFixed(0)} MB`,
  ];
  console.log(
    `\n${table(
      ['', 'CPU (median)', 'CPU (least)', 'wall (median)', 'peak RSS (median)'],
      [
        row('recall-feed sync (over HTTP)', ours),
        ...(BASELINE_BIN ? [row(`baseline sync (${BASELINE_BIN})`, baseline)] : []),
        row('sqlite-utils insert + enable-fts', theirs),
      ],
    )}\nload ${load()}`,
  );
  if (BASELINE_BIN) {
    const was = cpu(baseline);
    console.log(`baseline/sqlite-utils CPU ${ratio(was, theirsCpu)}; this build/baseline ${ratio(oursCpu, was)}`);
  }
  claims.check(
    `sync of ${RECORDS.toLocaleString('en-US')} recalls within ${TARGET}× sqlite-utils' CPU`,
    oursCpu / theirsCpu <= TARGET,
    ratio(oursCpu, theirsCpu),
  );
  claims.finish(`sync/sqlite-utils CPU ${ratio(oursCpu, theirsCpu)}`);
} finally {
  await sandbox?.close();
}
