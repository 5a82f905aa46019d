// `recall-feed sync`: its flags and help; copies the feed's window into the local archive, once or on a timer.
import type { OptionsOf } from './define-action.js';
import { BOUNDS, RECALL_FIELDS } from '../../api/constants.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { Settings } from '../../runtime/settings.js';
import { addDbOption, parseDb } from './archive-options.js';
import type { SyncPlan } from '../../jobs/archive/plans.js';
import type { ActionsPlan } from '../../jobs/watch/plan.js';
import { addOpsOptions, withUses } from './ops-action.js';
import { defineCommand, type NewCommand } from './define-command.js';
import { addsUp } from './filter-flags.js';
import { parseSourceList, parseWholeNumber } from '../../runtime/options/option-parsers.js';
import { planPoll } from './poll-plan.js';
import { addEmailOptions } from './email-flags.js';
import { DEFAULT_EXEC_TIMEOUT_S } from '../../jobs/watch/defaults.js';

/** Polling the whole 24 h window every 10 minutes costs about 13,000 requests a month at 1,500 recalls a day. */
export const DEFAULT_SYNC_INTERVAL_S = 600;

/** `recall-feed sync`: its flags and help; commander's types of them are the options' types. */
function declareSync(cmd: NewCommand) {
  const sync = cmd
    .option('--sources <ids>', 'comma-separated data source IDs (default: all the key may use)', addsUp)
    .option('--hours <1-24>', 'look-back window in hours (default 24)')
    .option('--watch', 'sync again and again, keeping the archive current')
    .option('--interval <seconds>', `with --watch: seconds between syncs (default ${DEFAULT_SYNC_INTERVAL_S})`)
    .option(
      '--exec <command>',
      'run this for each recall the sync stores as new, no shell; {field} fills in a value, the record is on stdin',
    )
    .option(
      '--exec-timeout <seconds>',
      `stop an --exec command after this long (default ${DEFAULT_EXEC_TIMEOUT_S}); it counts as failed`,
    )
    .option(
      '--webhook [url]',
      'POST each recall the sync stores as new there (https; bare: RECALL_FEED_WEBHOOK or config set webhook)',
    )
    .option(
      '--webhook-format <format>',
      'json (the record as sent, default), slack ({"text": ...} for Slack, Mattermost) or teams (an Adaptive Card)',
    )
    .option('--on-update', 'the actions also fire for each new version of a recall the sync stores');
  return addDbOption(
    addOpsOptions(addEmailOptions(sync, 'e-mail the recalls the sync stores as new, one message per sync')),
  ).addHelpText(
    'after',
    `
The summary goes to stderr; -f json prints it on stdout as {"fetched","new","updated","unchanged","total"}
(with --watch, -f jsonl: one such line per sync).
Each page is stored in its own transaction: an interrupted sync keeps what it stored, and the next one
completes it. Syncs into one archive at once (cron on several hosts) all succeed.

Actions (--exec, --webhook, --email) are queued in the archive with the page that stores the recall, and
delivered from there: hosts syncing one PostgreSQL archive with the same actions deliver each recall once
(a host killed mid-delivery leaves it to another). See docs/archive.md: Actions and the outbox.

Examples:
  recall-feed sync                              the last 24 hours into ~/.local/share/recall-feed/recalls.db
  recall-feed sync --db recalls.db -f json
  recall-feed sync --db postgres://sync@db.internal/compliance   a team's archive, shared (PostgreSQL)
  recall-feed sync --watch --interval 900       keep the archive current
  0 * * * * recall-feed sync                    crontab: every hour, nothing is missed
  recall-feed sync --watch --db postgres://sync@db/compliance --webhook --webhook-format slack   on two hosts`,
  );
}

type SyncOptions = OptionsOf<ReturnType<typeof declareSync>>;

/** What sync writes to stdout or -o: its summary, one JSON object, in either JSON format. */
const SUMMARY_FORMATS = ['json', 'jsonl'];

/** -o without -f must name one of the summary's formats: sync writes nothing else there. */
async function refuseUnnamedOutput(settings: Settings): Promise<void> {
  const { askedFormat } = await import('../../runtime/files/output-target.js');
  if (settings.output === undefined || askedFormat(settings)) return;
  const { extensionsOf } = await import('../../output/format-kinds.js');
  const exts = extensionsOf(SUMMARY_FORMATS);
  throw new UsageError(
    `sync writes its summary to -o only as JSON: with ${SUMMARY_FORMATS.map((f) => `-f ${f}`).join(' or ')}, or to a file named ${exts.slice(0, -1).join(', ')} or ${exts.at(-1)}`,
  );
}

export default defineCommand({
  name: 'sync',
  summary: 'copy the recalls of the last 1-24 hours into the local archive; new and changed ones are stored',
  formats: { kind: 'record', names: SUMMARY_FORMATS },
  flags: declareSync,
  // The action flags are checked with the settings (a bare --webhook takes the configured URL). A sync acts on
  // what it stores, with or without --watch.
  plan: async (opts, { settings, ctx }) => {
    await refuseUnnamedOutput(settings);
    const sync = planSync(opts);
    // -f json is one document; a watch writes a summary per poll, which only JSON Lines keeps one document.
    if (sync.watch !== undefined && settings.format === 'json')
      throw new UsageError('-f json is one JSON document, but sync --watch writes one summary per poll: use -f jsonl');
    const { planActions } = await import('./actions-plan.js');
    const actions = planActions(opts, { watch: true, state: true }, settings, ctx.env, RECALL_FIELDS);
    return { ...sync, ...syncActions(opts, actions) };
  },
  run: async (plan, session) => {
    const { runSync, syncUses } = await import('../../jobs/archive/sync.js');
    // What the sync opens follows from its plan (-f json or -o asks for the summary): checked before anything opens.
    await withUses(session, syncUses(plan, session.settings), (s) => runSync(plan, s));
  },
  reports: 'sync',
});

export function planSync(opts: SyncOptions): SyncPlan {
  const watch = planPoll(opts, DEFAULT_SYNC_INTERVAL_S);
  return {
    db: parseDb(opts),
    sources: parseSourceList(opts.sources),
    hours: parseWholeNumber(opts.hours, '--hours', BOUNDS.hoursMin, BOUNDS.hoursMax) ?? BOUNDS.defaultHours,
    watch,
  };
}

/** What the sync does for each recall it stores (--exec, --webhook, --email), and whether for new versions too. */
function syncActions(opts: SyncOptions, actions: ActionsPlan | undefined): Pick<SyncPlan, 'actions' | 'onUpdate'> {
  if (opts.onUpdate && !actions)
    throw new UsageError('--on-update works with --exec, --webhook or --email', 'e.g. sync --webhook URL --on-update');
  return { ...(actions ? { actions } : {}), ...(opts.onUpdate ? { onUpdate: true } : {}) };
}
