// A huge field on a terminal: `show` of a recall whose summary is 10 MB costs what one of 1 MB costs (the view
// is bounded to 10,000 characters and wrapping is linear), and both end; as a ratio measured side by side.
import path from 'node:path';
import { DEMO_KEYS, startSandbox } from '../dist/sandbox/index.js';
import { BIN, Claims, cleanEnv, median, ratio, requireBuild, run, table, tempDir } from './lib/common.mjs';

const ROUNDS = 7;
const WARMUP = 2;
/** 10× the text must not show: only reading it from the archive grows (the old wrap never finished 10 MB). */
const RATIO_LIMIT = 1.5;
const SIZES = [
  { name: '1 MB', chars: 1_000_000 },
  { name: '10 MB', chars: 10_000_000 },
];
const unbroken = (n) => 'abcdefghijklmnopqrstuvwxyz'.repeat(Math.ceil(n / 26)).slice(0, n);

const claims = new Claims('huge-field');
let sandbox;
try {
  requireBuild();
  const dir = tempDir('huge-field');
  const env = cleanEnv({
    HOME: dir,
    RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'),
    RECALL_FEED_FORCE_TTY: '1',
    COLUMNS: '100',
  });
  sandbox = await startSandbox({ port: 0, recordCount: 3, seed: 4 });
  const records = sandbox.addRecords(SIZES.map((s) => ({ alert_summary: unbroken(s.chars) })));
  const db = path.join(dir, 'recalls.db');
  const synced = await run(process.execPath, [BIN, '--base-url', sandbox.url, 'sync', '--db', db], {
    env: { ...env, RECALL_FEED_API_KEY: DEMO_KEYS.all.key },
    timeoutMs: 120_000,
  });
  if (synced.code !== 0) throw new Error(`sync exited ${synced.code}: ${synced.stderr}`);
  const times = Object.fromEntries(SIZES.map((s) => [s.name, []]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const order = round % 2 ? [...SIZES.keys()].reverse() : [...SIZES.keys()];
    for (const i of order) {
      const res = await run(process.execPath, [BIN, 'show', String(records[i].id), '--db', db], {
        env,
        timeoutMs: 60_000,
        captureStdout: true,
      });
      if (res.code !== 0) throw new Error(`show of the ${SIZES[i].name} field exited ${res.code}: ${res.stderr}`);
      if (!res.stdout.includes(`… (${SIZES[i].chars - 10_000} more characters)`))
        throw new Error(`show of the ${SIZES[i].name} field did not end with the count of what it left out`);
      if (round >= WARMUP) times[SIZES[i].name].push(res.ms);
    }
  }
  const [small, big] = SIZES.map((s) => median(times[s.name]));
  console.log(
    table(
      ['field', 'median ms', 'ratio'],
      SIZES.map((s) => [s.name, median(times[s.name]).toFixed(0), ratio(median(times[s.name]), small)]),
    ),
  );
  claims.check(
    `show of a 10 MB field costs at most ${RATIO_LIMIT}× a 1 MB one, on a terminal`,
    big / small <= RATIO_LIMIT,
    ratio(big, small),
  );
  claims.finish(`10 MB vs 1 MB: ${ratio(big, small)} (${big.toFixed(0)} ms)`);
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close();
}
