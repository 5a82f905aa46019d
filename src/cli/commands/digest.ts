// `recall-feed digest`: its flags and help, and the plan the digest job runs with (its own -f taken off the globals).
import type { OptionsOf } from './define-action.js';
import { endAfterNow } from '../../archive/store.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { DigestDraft } from './digest-plan.js';
import { DIGEST_FORMATS, type DigestFormat, kindFormat } from '../../output/format-kinds.js';
import { addEmailOptions } from './email-flags.js';
import { parseFilterOptions } from '../../runtime/options/filter-options.js';
import { addFilterOptions, addsUp, onlyOnce } from './filter-flags.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import { addDbOption, parseDb } from './archive-options.js';
import { mapOf, parseInstant, parseSourceList, parseWindow } from '../../runtime/options/option-parsers.js';
import { addOpsOptions } from './ops-action.js';
import { chainFor } from '../../jobs/digest/digest-chain.js';
import { defineCommand, type NewCommand } from './define-command.js';

const DEFAULT_SINCE = '24h';
const SINCE_LAST = 'last';

/** `recall-feed digest`: its flags and help; commander's types of them are the options' types. */
function declareDigest(cmd: NewCommand) {
  const digest = cmd
    .option(
      '--since <when>',
      `start of the period: a duration back from now, an ISO date-time, or last: where the last digest of the same --sources and filters ended (default ${DEFAULT_SINCE})`,
      onlyOnce('--since'),
    )
    .option('--until <when>', 'end of the period (default: now)', onlyOnce('--until'))
    .option('--sources <ids>', 'only these data sources; also the sources monitoring must have covered', addsUp)
    .option('--catalog <file>', "add the catalogue's matches among the period's recalls (as `match` reads it)")
    .option('--map <spec>', 'catalogue columns by role, e.g. gtin=EAN13,brand=Marque')
    .option(
      '--key <column>',
      'with --catalog: the column naming each product (default: sku, id, ref, our_ref, article)',
    )
    .option('--webhook [url]', 'POST the summary there (bare: RECALL_FEED_WEBHOOK or config set webhook)')
    .option('--webhook-format <format>', 'json (the digest, default), slack or teams');
  return addDbOption(
    addFilterOptions(
      addOpsOptions(addEmailOptions(digest, 'e-mail the digest to these addresses (text and HTML parts)')),
    ),
  ).addHelpText(
    'after',
    `
text is the default format; html is one self-contained printable page; json is described in docs/digest.md.
With --email or --webhook the digest is printed only when -f or -o asks for it.

A recall belongs to the period in which the archive stored it (its commit stamp, the database's clock):
back-to-back digests (--until of one = --since of the next) list each stored recall once. --since last
chains them so (each end is recorded in the archive once the digest was delivered), however late, early
or seldom they run: cron at 8:00 local time runs 23 or 25 hours apart when the clocks change. A sync still
storing a page is waited for (at most 5 minutes). With --catalog every format opens with your products.
Before them, with or without --catalog: open and waiting cases overdue or due by the end of the next
working day (UTC, Monday to Friday), by the digest's clock, overdue first (docs/digest.md, Deadlines).

"complete" means at least one sync succeeded, none failed or was interrupted, no stretch went unfetched,
every source the key may use was served to a sync, and no page was still being stored; only then does it
say "no new recalls".

Exit codes: as every command, and 11 when --email or --webhook could not deliver the digest.

Examples:
  recall-feed digest                                   the last 24 hours, on the terminal
  recall-feed digest --since 7d -f html -o week.html   a printable weekly page
  recall-feed digest --since last --email compliance@example.com
                                                       from cron at 8:00, each from where the last ended
                                                       (config set smtp-url, email-from first)
  recall-feed digest --catalog products.csv --webhook --webhook-format teams`,
  );
}

type DigestOptions = OptionsOf<ReturnType<typeof declareDigest>>;

export default defineCommand({
  name: 'digest',
  summary: 'what the archive stored in a period (new and updated recalls) and whether monitoring held',
  // -f is the digest's own: the session is made from the globals without it, and the settings never see it.
  formats: { kind: 'digest', names: DIGEST_FORMATS },
  flags: declareDigest,
  plan: async (opts, { globals, now, settings }) => {
    const { settleDigest } = await import('./digest-plan.js');
    return settleDigest(planDigest(opts, globals, now).plan, settings);
  },
  uses: (plan) => ({
    output: { format: plan.format },
    // --since last records where the digest ended: an archive it may write, refused before anything is sent.
    archive: { db: plan.db, mode: plan.chain ? ('write' as const) : ('read' as const) },
    kept: plan.catalog ? [{ path: plan.catalog.file, what: 'catalogue' }] : [],
  }),
  run: async (plan, session) => (await import('../../jobs/digest/run-digest.js')).runDigest(plan, session),
  reports: 'digest',
});

/** -f text|markdown|html|json, which the global --format does not know: taken off the globals here. */
function digestFormat(raw: string | undefined): DigestFormat | undefined {
  if (raw === undefined) return undefined;
  const format = kindFormat('digest', DIGEST_FORMATS, raw);
  if (format === undefined) throw new UsageError(`--format must be one of ${DIGEST_FORMATS.join(', ')}, not '${raw}'`);
  return format;
}

export function planDigest(
  opts: DigestOptions,
  globals: GlobalFlags,
  nowMs: number,
): { plan: DigestDraft; globals: GlobalFlags } {
  const { format, ...rest } = globals;
  // --since last: the period starts where the chain's last digest ended, read when the run starts (digest-chain.ts).
  const last = opts.since?.trim() === SINCE_LAST;
  // As query, stats and report read a window; --until left out is now, included.
  const window = last
    ? { sinceUs: undefined, untilUs: parseInstant(opts.until, '--until', nowMs) }
    : parseWindow(opts.since ?? DEFAULT_SINCE, opts.until, nowMs);
  const toUs = window.untilUs ?? endAfterNow(nowMs) * 1000;
  const fromUs = window.sinceUs ?? toUs - 1000;
  if (fromUs >= toUs) throw new UsageError(`--since ${opts.since} is not before now: the period would be empty`);
  if (opts.map !== undefined && opts.catalog === undefined) throw new UsageError('--map works with --catalog');
  if (opts.key !== undefined && opts.catalog === undefined) throw new UsageError('--key works with --catalog');
  if (opts.webhookFormat !== undefined && opts.webhook === undefined)
    throw new UsageError('--webhook-format works with --webhook');
  const map = mapOf(opts.map);
  const sources = parseSourceList(opts.sources);
  const filter = parseFilterOptions(opts);
  const untilMs = window.untilUs === undefined ? undefined : Math.floor(window.untilUs / 1000);
  const plan: DigestDraft = {
    db: parseDb(opts),
    fromMs: Math.floor(fromUs / 1000),
    toMs: Math.floor(toUs / 1000),
    chain: last ? chainFor(sources, filter, untilMs, opts.catalog) : undefined,
    sources,
    filter,
    catalog: opts.catalog === undefined ? undefined : { file: opts.catalog, map, key: opts.key },
    format: digestFormat(format),
    email: { email: opts.email, smtpUrl: opts.smtpUrl, emailFrom: opts.emailFrom },
    webhook: opts.webhook,
    webhookFormat: opts.webhookFormat,
  };
  return { plan, globals: rest };
}
