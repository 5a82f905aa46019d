// The plan of a `feed` run (and of `match --watch`'s polls): what the job runs, every flag checked and every default filled in.
import type { FeedParams } from '../../api/schemas.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { Format } from '../../runtime/settings.js';
import type { WebhookFormat } from '../../actions/webhook-url.js';
import type { EmailPlan } from '../../runtime/options/email-options.js';

/** Everything a run needs, checked, with every default filled in. */
export interface FeedPlan {
  format: Format;
  /** The API parameters of each request, without the cursor. */
  params: FeedParams;
  custom: string | undefined;
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
  /** `--state`: the file of ids already written; only new recalls are written. */
  state: string | undefined;
  /** Record filters the API cannot apply (--severity ... --grep): only matching records are written. */
  filter: RecordFilter;
  /** --exec and --webhook: what to do for each recall written. */
  actions: ActionsPlan | undefined;
  /** How long to wait for another run that holds the same output or state file. */
  lockWaitMs: number;
  watch: { intervalMs: number; skipExisting: boolean } | undefined;
}

/** What a run does for each recall it writes. */
export interface ActionsPlan {
  exec?: { words: string[]; timeoutMs: number };
  webhook?: { url: URL; format: WebhookFormat };
  /** --email: one message per poll or run with everything it wrote. */
  email?: EmailPlan;
}
