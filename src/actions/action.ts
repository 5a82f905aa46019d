// What an action on a new recall is: a name for reports and the state file, and one attempt at running it.

/** What a delivery is for: a recall stored for the first time, or a new version of one (sync --on-update). */
export type Change = 'new' | 'update';

export interface AttemptResult {
  ok: boolean;
  /** Why it failed, in one line (never holding a secret such as the webhook URL). */
  error?: string;
  /** The receiver asked to be left alone this long (HTTP 429 Retry-After). */
  retryAfterMs?: number;
  /** It gave no answer within its timeout: a receiver that keeps doing so rests for the rest of the pass. */
  timedOut?: boolean;
  /** The same record can never succeed (an argument too long for the system): given up, not retried. */
  permanent?: boolean;
  /**
   * The receiver refused this request (a webhook's 4xx other than 408 and 429; for the digest, an SMTP server's 5xx):
   * sent again at once it would be refused again, so it is not retried now. A recall it was for stays pending.
   */
  refused?: boolean;
}

export interface Action {
  /** Stable across runs ("exec", "webhook"): the state file records which actions succeeded per recall. */
  name: string;
  /**
   * `signal` abandons the attempt at once, its outcome unknown. The delivery queues never pass the run's stop signal
   * here: an attempt under way when the run is stopped finishes, bounded by its own timeout (under-way.ts).
   */
  attempt(record: Record<string, unknown>, signal?: AbortSignal): Promise<AttemptResult>;
}
