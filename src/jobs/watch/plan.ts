// The plans of the feed engine: a poll loop's pace, a poll of the feed (feed --state and --watch, match --watch), a watch, a feed run, the actions.
import type { FeedParams } from '../../api/schemas.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { Format } from '../../runtime/settings.js';
import type { WebhookFormat } from '../../actions/webhook-url.js';
import type { EmailPlan } from '../../runtime/options/email-options.js';

/** The pace of a poll loop (`--watch`, `--interval`): all that feed's, match's and sync's loops share. */
export interface PollPlan {
  intervalMs: number;
}

/**
 * A poll of the feed, as `feed --state`, `feed --watch` and `match --watch` make it: the window each poll asks for,
 * the filters the API cannot apply, the ids already seen, the actions, and how long to wait for another run's lock.
 */
export interface FeedPollPlan {
  /** The API parameters of each request, without the cursor. */
  params: FeedParams;
  custom: string | undefined;
  /** Record filters the API cannot apply (--severity ... --grep): only matching records are written. */
  filter: RecordFilter;
  /** `--state`: the file of ids already written; only new recalls are written. */
  state: string | undefined;
  /** --exec, --webhook, --email: what to do for each recall (or match row) written. */
  actions: ActionsPlan | undefined;
  /** How long to wait for another run that holds the same output or state file. */
  lockWaitMs: number;
}

/**
 * Polls of the feed on a loop: `feed --watch`, `match --watch`; with --skip-existing the first poll only remembers.
 * `params.hoursAgo` is the window of a routine poll; `sweepMs`, when set, how often a poll asks for the whole window the
 * API allows instead (the first poll always does), for the recalls that reach the API after their routine window.
 */
export interface WatchPlan extends FeedPollPlan {
  watch: PollPlan & { skipExisting: boolean; sweepMs: number | undefined };
}

/** A `feed` run (an export, a `--state` poll or a `--watch`), checked, with every default filled in. */
export interface FeedPlan extends FeedPollPlan {
  format: Format;
  columns: string[] | undefined;
  formulaGuard: boolean;
  bom: boolean;
  /** Stop after this many records written. */
  max: number | undefined;
  /** Export only: where to start, and whether to go past the first page. */
  cursor: string | undefined;
  paginate: boolean;
  append: boolean;
  resume: boolean;
  watch: WatchPlan['watch'] | undefined;
}

/** What a run does for each recall it writes. */
export interface ActionsPlan {
  exec?: { words: string[]; timeoutMs: number };
  webhook?: { url: URL; format: WebhookFormat };
  /** --email: one message per poll or run with everything it wrote. */
  email?: EmailPlan;
}
