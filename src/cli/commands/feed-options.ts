// `recall-feed feed`: its flags and help, and the type of its options as commander parses them.
import { SORT_FIELDS } from '../../api/constants.js';
import {
  DEFAULT_EXEC_TIMEOUT_S,
  DEFAULT_INTERVAL_S,
  DEFAULT_LOCK_WAIT_S,
  DEFAULT_PAGE_SIZE,
  HOURS_HELP,
} from '../../jobs/watch/defaults.js';
import { addEmailOptions } from './email-flags.js';
import { addFilterOptions, addsUp } from './filter-flags.js';
import type { OptionsOf } from './define-action.js';
import type { NewCommand } from './define-command.js';
import { addOpsOptions } from './ops-action.js';

/** `feed`'s flags and help; commander's types of them are the options' types (FeedOptions). */
export function declareFeed(cmd: NewCommand) {
  const feed = cmd
    .option('--sources <ids>', 'comma-separated data source IDs (default: all the key may use)', addsUp)
    .option('--hours <1-24>', HOURS_HELP)
    .option('--sort <field>', `sort field: ${SORT_FIELDS.join(', ')} (default published_at)`)
    .option('--order <order>', 'asc or desc (default desc)')
    .option('--page-size <1-500>', `records per request (default ${DEFAULT_PAGE_SIZE}: fewest requests)`)
    .option('--max <n>', 'stop after n records (with --state: n new ones), sending no request beyond what n needs')
    .option('--cursor <cursor>', 'start at this cursor (as printed by an interrupted run)')
    .option('--no-paginate', 'fetch one page only; the next cursor goes to stderr')
    .option(
      '--columns <list>',
      'table and csv columns, e.g. id,published_at,product_name (a typo of a field is refused)',
    )
    .option('--custom <name>', 'an enterprise feed: /v1/recalls/feed/<name>')
    .option('--append', 'with -o: add the new records to the file, after the run succeeded')
    .option('--resume', 'with -o: continue the <file>.partial an interrupted run left')
    .option('--no-formula-guard', "csv: do not prefix cells starting with = + - @ with '")
    .option('--bom', 'csv: start a new file with a UTF-8 byte-order mark (Excel)')
    .option('--watch', 'poll again and again, printing only recalls not shown before')
    .option('--interval <seconds>', `with --watch: seconds between polls (default ${DEFAULT_INTERVAL_S})`)
    .option('--skip-existing', 'with --watch: only remember what the first poll finds, print what comes after')
    .option('--state <file>', 'remember the ids written across runs; write only new recalls')
    .option(
      '--exec <command>',
      'with --watch or --state: run this for each new recall, no shell; {field} fills in a value, the record is on stdin',
    )
    .option(
      '--exec-timeout <seconds>',
      `stop an --exec command after this long (default ${DEFAULT_EXEC_TIMEOUT_S}); it counts as failed`,
    )
    .option(
      '--webhook [url]',
      'with --watch or --state: POST each new recall there (https; bare: RECALL_FEED_WEBHOOK or config set webhook)',
    )
    .option(
      '--webhook-format <format>',
      'json (the record as sent, default), slack ({"text": ...} for Slack, Mattermost) or teams (an Adaptive Card)',
    )
    .option(
      '--lock-wait <seconds>',
      `with -o or --state: wait this long for another run on the same files (default ${DEFAULT_LOCK_WAIT_S})`,
    )
    .addHelpText(
      'after',
      `
Examples:
  recall-feed feed --sandbox
  recall-feed feed --hours 6 --sources us_cpsc,uk_opss --sort updated_at
  recall-feed feed -f csv -o recalls.csv                   atomic: the file appears only when complete
  recall-feed feed -f csv -o recalls.csv --resume          finish an export that stopped part-way
  recall-feed feed | jq -r '[.id, .product_name] | @tsv'
  recall-feed feed --watch --interval 120                  new recalls as they are published
  recall-feed feed --state seen.json -f csv -o new.csv --append   from cron: each recall once, ever
  recall-feed feed --severity serious,high --jurisdiction FR --category jouet   filters the API cannot apply
  recall-feed feed --watch --state seen.json --exec 'notify-send -- "Recall" {alert_title}'
  recall-feed feed --watch --state seen.json --webhook --webhook-format slack    URL from config set webhook
  recall-feed feed --watch --state seen.json --email team@example.com   one e-mail per poll (config set smtp-url)

Filters match without case or accents; a list matches whole values, text a substring; flags combine with AND.

Formats: jsonl (one record per line, exactly as the API sent it), json (one array), csv (RFC 4180,
arrays joined with "; ", objects as JSON, null empty), table (a compact view; summary on stderr).`,
    );
  return addFilterOptions(
    addOpsOptions(
      addEmailOptions(
        feed,
        'with --watch or --state: e-mail these addresses one message per poll or run with its new recalls',
      ),
    ),
  );
}

/** The `feed` flags as commander parses them, inferred from the declaration. */
export type FeedOptions = OptionsOf<ReturnType<typeof declareFeed>>;
