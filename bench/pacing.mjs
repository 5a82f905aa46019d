// Pacing under shrunken windows (10 requests per 2 s): a 60-page export sends no 429 and takes at most
// 1.2× the theoretical minimum, measured against that minimum in the same run.
import { Claims, cleanEnv, ratio, requireBuild, run, BIN } from './lib/common.mjs';

const PER_WINDOW = 10;
const WINDOW_MS = 2000;
const PAGES = 60;
const PAGE_SIZE = 20;
const RATIO_LIMIT = 1.2;

const claims = new Claims('pacing');
let sandbox;
try {
  requireBuild();
  const { startSandbox, DEMO_KEYS } = await import('../dist/sandbox/index.js');
  const limits = {
    minute: { limit: PER_WINDOW, windowMs: WINDOW_MS },
    hour: { limit: 100_000, windowMs: 3_600_000 },
    day: { limit: 100_000, windowMs: 86_400_000 },
    month: { limit: 1_000_000 },
  };
  // A frozen sandbox clock would freeze its windows too, so this one runs on the real clock; the
  // records sit in the last 12 hours so none leaves the 24-hour window during the run.
  sandbox = await startSandbox({ port: 0, rateLimits: limits, recordCount: PAGES * PAGE_SIZE * 2 });
  const args = [
    BIN,
    '--base-url',
    sandbox.url,
    '--pace',
    `minute=${PER_WINDOW}/${WINDOW_MS / 1000}s`,
    'feed',
    '--page-size',
    String(PAGE_SIZE),
    '--max',
    String(PAGES * PAGE_SIZE),
    '-f',
    'csv',
    '--columns',
    'id',
  ];
  const env = cleanEnv({ RECALL_FEED_API_KEY: DEMO_KEYS.all.key });
  // The same CLI start with one request: what every run pays besides the waiting.
  const once = await run(process.execPath, [BIN, '--base-url', sandbox.url, 'feed', '--max', '1'], {
    env,
    timeoutMs: 30_000,
  });
  // Let that request leave the sandbox's window, so the paced run starts with the whole budget.
  await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
  sandbox.clearRequests();
  const paced = await run(process.execPath, args, { env, timeoutMs: 120_000, captureStdout: true });
  const statuses = sandbox.requests().map((r) => r.status);
  const records = paced.stdout.split('\n').filter(Boolean).length - 1; // minus the csv header
  // The first PER_WINDOW requests go at once; each further batch waits for the window to move on.
  const theoretical = (Math.ceil(PAGES / PER_WINDOW) - 1) * WINDOW_MS + once.ms;
  const r = paced.ms / theoretical;
  console.log(`pages: ${statuses.length}, records: ${records}, 429s: ${statuses.filter((s) => s === 429).length}`);
  console.log(`elapsed / theoretical minimum (waits + one CLI start): ${ratio(paced.ms, theoretical)}`);
  claims.check('exit 0', paced.code === 0, `exit ${paced.code}`);
  claims.check(
    `${PAGES} pages, ${PAGES * PAGE_SIZE} records`,
    statuses.length === PAGES && records === PAGES * PAGE_SIZE,
    `${statuses.length} pages, ${records} records`,
  );
  claims.check('no 429', !statuses.includes(429));
  claims.check(`at most ${RATIO_LIMIT}× the theoretical minimum`, r <= RATIO_LIMIT, ratio(paced.ms, theoretical));
  claims.finish(
    `60 pages under 10 per 2 s: ${ratio(paced.ms, theoretical)} the theoretical minimum, ${statuses.filter((s) => s === 429).length} 429s`,
  );
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close().catch(() => {});
}
