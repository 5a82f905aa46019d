// `recall-feed sandbox`: runs the local sandbox server until SIGINT or SIGTERM, printing its URL first.
import { listenError } from './listen-errors.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { Context } from '../../runtime/context.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import type { OptionsOf } from './define-action.js';
import { defineLocalCommand, type NewCommand } from './define-command.js';
import { parseWholeNumber } from '../../runtime/options/option-parsers.js';
import { sandboxNow } from '../../runtime/run-clock.js';
import { parseSandboxNow } from '../../runtime/settings-parsers.js';

/** `recall-feed sandbox`: its flags and help; commander's types of them are the options' types. */
function declareSandbox(cmd: NewCommand) {
  return cmd
    .option('--port <port>', 'port to listen on; 0 picks a free one', '0')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data', '1')
    .option('--records <n>', 'recalls in the last 24 hours', '1200')
    .option('--keys <file>', 'JSON file of keys: [{"key":"...","sources":["us_cpsc"]}]')
    .option('--rate-limit <spec>', 'shrink the windows, e.g. minute=10/2s,hour=100/1m,month=500')
    .option('--no-rate-limit', 'no rate limiting at all')
    .option('--monthly-usage <n>', 'requests already spent this month by each key')
    .option('--arrivals <n>', 'new recalls per minute, published now')
    .option(
      '--updates <n>',
      'recalls of the window given a new version per minute (newer updated_at, changed status and severity)',
    )
    .option('--faults <spec>', 'inject faults, e.g. 500=0.1,503=0.1,502=0.05,cut=0.05,truncate=0.05,slow=0.1,429=0.02')
    .option('--rate-limit-headers', 'also send X-RateLimit-* headers and Retry-After')
    .option(
      '--start-time <iso>',
      'generate the recalls relative to this instant (ISO 8601; without a zone, UTC), off the calendar: the same seed and time, the same recalls (a fixed world, for tests; not with --sandbox-now)',
    )
    .option('--json', 'print {"url":...,"keys":[...]} on one line instead of the URL')
    .addHelpText(
      'after',
      `
The first line on stdout is the URL (or the JSON line). Test hooks live under /_sandbox/:
GET|DELETE /_sandbox/requests, GET|POST /_sandbox/records, POST /_sandbox/updates, POST /_sandbox/faults,
POST /_sandbox/health, POST /_sandbox/reset.

Examples:
  recall-feed sandbox --port 8080
  recall-feed sandbox --port 0 --json --rate-limit minute=10/2s --arrivals 6`,
    );
}

type SandboxCommandOptions = OptionsOf<ReturnType<typeof declareSandbox>>;

export default defineLocalCommand({
  name: 'sandbox',
  summary: 'run a local server that implements the whole API with generated data (no key needed)',
  flags: declareSandbox,
  plan: (opts, { globals }) => ({ opts, globals }),
  run: async ({ opts, globals }, ctx) => runSandbox(opts, globals, ctx),
  // The sandbox serves --sandbox-now: its own clock, not the run's.
  ownsPin: true,
});

/** A date-time without its zone: `2026-03-29T01:00:00`. */
const ZONELESS_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/;

/**
 * --start-time as an instant (epoch ms), checked by --sandbox-now's parser (ISO 8601 only; no 30 February, which
 * Date.parse rolls over into March), except that a time without a zone is UTC, as --since reads one: the same flags
 * give the same world whatever the machine's TZ. Refusals are usage errors (exit 2), naming the value as given.
 */
function parseStartTime(raw: string): number {
  const value = raw.trim();
  try {
    // A day alone is its midnight, UTC (as the flag read it before it was checked).
    const zoned = /^\d{4}-\d\d-\d\d$/.test(value) ? `${value}T00:00:00Z` : value;
    return parseSandboxNow(ZONELESS_TIME.test(zoned) ? `${zoned}Z` : zoned, '--start-time');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message.endsWith(': no such day')) throw new UsageError(`--start-time ${value}: no such day`, err.hint);
    throw new UsageError(
      `--start-time must be an ISO 8601 date or time, e.g. 2026-03-29 or 2026-03-29T01:00:00Z (without a zone: UTC), not '${raw}'`,
    );
  }
}

/**
 * With --sandbox-now (or RECALL_FEED_SANDBOX_NOW), the sandbox's clock starts at that instant and runs on in
 * real time: a lasting server's rate windows must still slide for the clients that wait on them.
 */
function sandboxClock(globals: GlobalFlags, ctx: Context, startTime: number | undefined) {
  const at = sandboxNow(globals, ctx.env);
  if (at === undefined) return undefined;
  if (startTime !== undefined)
    throw new UsageError(
      "--start-time and --sandbox-now both set the sandbox's time",
      'keep --sandbox-now (the calendar, as --sandbox sees it)',
    );
  const started = ctx.now();
  return () => at.ms + (ctx.now() - started);
}

export async function runSandbox(opts: SandboxCommandOptions, globals: GlobalFlags, ctx: Context): Promise<void> {
  const { parseFaultSpec, parseRateLimitSpec, loadKeysFile } = await import('../../sandbox/cli-options.js');
  const { startSandbox, DEMO_KEYS } = await import('../../sandbox/index.js');
  const startTime = opts.startTime === undefined ? undefined : parseStartTime(opts.startTime);
  const clock = sandboxClock(globals, ctx, startTime);
  const port = parseWholeNumber(opts.port, '--port', 0, 65535)!;
  const sandbox = await startSandbox({
    port,
    host: opts.host,
    seed: parseWholeNumber(opts.seed, '--seed', 0),
    recordCount: parseWholeNumber(opts.records, '--records', 0, 200_000),
    keys: opts.keys ? loadKeysFile(opts.keys) : [DEMO_KEYS.all, DEMO_KEYS.limited],
    rateLimits:
      opts.rateLimit === false
        ? false
        : typeof opts.rateLimit === 'string'
          ? parseRateLimitSpec(opts.rateLimit)
          : undefined,
    monthlyUsage: parseWholeNumber(opts.monthlyUsage, '--monthly-usage', 0),
    arrivalsPerMinute: parseWholeNumber(opts.arrivals, '--arrivals', 0, 100_000),
    updatesPerMinute: parseWholeNumber(opts.updates, '--updates', 0, 100_000),
    faults: opts.faults ? parseFaultSpec(opts.faults) : undefined,
    rateLimitHeaders: opts.rateLimitHeaders ?? false,
    startTime,
    ...(clock ? { clock } : {}),
    // A lasting sandbox keeps its recalls across restarts; a fixed start or arrival rate asks for the other world.
    calendar: startTime === undefined && opts.arrivals === undefined,
  }).catch((err: unknown) => {
    throw listenError(err, opts.host, port, '--port');
  });
  // A sandbox's recalls are told from real ones by their key (src/cli/archive/sandbox-origin.ts).
  for (const k of sandbox.keys.filter((key) => !key.key.startsWith('dr_test_'))) {
    ctx.stderr.write(
      `warning: key ${k.key.slice(0, 8)}… does not start with dr_test_: a sync with it cannot be told from real recalls; give it its own --db\n`,
    );
  }
  if (opts.json) {
    const keys = sandbox.keys.map((k) => ({ key: k.key, sources: k.sources }));
    ctx.stdout.write(`${JSON.stringify({ url: sandbox.url, keys })}\n`);
  } else {
    ctx.stdout.write(`${sandbox.url}\n`);
    for (const k of sandbox.keys) ctx.stderr.write(`key ${k.key} → ${k.sources.join(', ')}\n`);
    ctx.stderr.write('sandbox running; Ctrl-C stops it\n');
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
}
