// What a run tells the monitor and the metrics while it works (Context.ops): counts, its client, the end of each poll.
import type { RateLimitInfo } from '../../api/schemas.js';

/** What a run handled: any field it knows, added up over the run (or, with --watch, the poll). */
export interface RunCounts {
  fetched?: number;
  new?: number;
  updated?: number;
  /** Deliveries (--exec, --webhook, --email) still owed, and given up, after the run or poll. */
  pending?: number;
  failed?: number;
}

/** The client as the metrics read it at the end: its last rate_limit block, each window's room, its waits. */
export interface ObservedClient {
  readonly lastRateLimit: RateLimitInfo | undefined;
  /** Time spent waiting for rate limits, in ms: off a terminal only the metrics, -v and the JSON log say it. */
  readonly rateLimitWaitMs: number;
  remaining(window: 'minute' | 'hour' | 'day'): number;
}

/** Set on the context only for feed, sync, match and digest (src/cli/ops/ops-action.ts); optional everywhere. */
export interface RunHooks {
  client(client: ObservedClient): void;
  counts(counts: RunCounts): void;
  /** The end of one --watch poll: undefined on success. Pings the monitor and writes the metrics, never throws. */
  pollEnded(err?: unknown): Promise<void>;
}
