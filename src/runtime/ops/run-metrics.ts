// The metric families of one run or poll: outcome, duration, records, rate limits, credits, deliveries, cases.
import type { RateLimitInfo } from '../../api/schemas.js';
import type { OutboxBacklog } from '../../archive/outbox-model.js';
import { LAST_SUCCESS, type Metric, type Sample } from './metrics.js';
import type { ObservedClient, RunCounts } from './run-hooks.js';

export interface CaseCounts {
  open: number;
  waiting: number;
  overdue: number;
}

export interface RunFacts {
  command: string;
  /** The sources the run asked for, or ['all']. */
  sources: string[];
  startedMs: number;
  endedMs: number;
  exitCode: number;
  counts: RunCounts;
  client: ObservedClient | undefined;
  cases: CaseCounts | undefined;
  /** sync's: the archive's outbox after the run (or poll). */
  outbox?: OutboxBacklog | undefined;
  /** The last-success samples the file held before. */
  previous: Sample[];
}

const WINDOWS = ['minute', 'hour', 'day'] as const;
const LIMIT_OF: Record<(typeof WINDOWS)[number], keyof RateLimitInfo['limits']> = {
  minute: 'per_minute',
  hour: 'per_hour',
  day: 'per_day',
};

function gauge(name: string, help: string, samples: Sample[]): Metric {
  return { name, help, type: 'gauge', samples };
}

function mergeSuccess(previous: readonly Sample[], fresh: readonly Sample[]): Sample[] {
  const key = (s: Sample) => `${s.labels?.command}\u0000${s.labels?.source}`;
  const merged = new Map(previous.map((s) => [key(s), s]));
  for (const s of fresh) merged.set(key(s), s);
  return [...merged.values()];
}

export function runMetrics(f: RunFacts): Metric[] {
  const command = { command: f.command };
  const ok = f.exitCode === 0;
  const success = ok ? f.sources.map((source) => ({ labels: { ...command, source }, value: f.endedMs / 1000 })) : [];
  const counts = (n: number | undefined) => (n === undefined ? [] : [{ labels: command, value: n }]);
  const rate = f.client?.lastRateLimit;
  const metrics: Metric[] = [
    gauge(LAST_SUCCESS, 'When a run last succeeded, per command and source (Unix time).', [
      ...mergeSuccess(f.previous, success),
    ]),
    gauge('recall_feed_last_run_timestamp_seconds', 'When the last run (or poll) ended (Unix time).', [
      { labels: command, value: f.endedMs / 1000 },
    ]),
    gauge('recall_feed_last_run_duration_seconds', 'How long the last run (or poll) took.', [
      { labels: command, value: Math.max(0, f.endedMs - f.startedMs) / 1000 },
    ]),
    gauge('recall_feed_last_run_success', '1 when the last run (or poll) succeeded, else 0.', [
      { labels: command, value: ok ? 1 : 0 },
    ]),
    gauge('recall_feed_last_run_exit_code', 'The exit code of the last run (or poll): 0 success.', [
      { labels: command, value: f.exitCode },
    ]),
    gauge(
      'recall_feed_records_fetched',
      'Records the last run (or poll) fetched from the API.',
      counts(f.counts.fetched),
    ),
    gauge('recall_feed_records_new', 'Records the last run (or poll) found new.', counts(f.counts.new)),
    gauge(
      'recall_feed_records_updated',
      'Records the last run (or poll) stored as new versions.',
      counts(f.counts.updated),
    ),
    gauge(
      'recall_feed_delivery_pending',
      'Deliveries (--exec, --webhook, --email) still owed.',
      counts(f.counts.pending),
    ),
    gauge(
      'recall_feed_delivery_failed',
      'Failed delivery attempts in the last run (or poll).',
      counts(f.counts.failed),
    ),
  ];
  if (f.client) {
    metrics.push(
      gauge(
        'recall_feed_rate_limit_wait_seconds',
        'Time spent waiting for rate limits (pacing and 429s): by the last run, or a --watch since it started.',
        [{ value: f.client.rateLimitWaitMs / 1000 }],
      ),
    );
  }
  if (f.client && rate) {
    metrics.push(
      gauge(
        'recall_feed_rate_limit_remaining',
        'Requests left in each rate-limit window, as this run paced them.',
        WINDOWS.map((w) => ({ labels: { window: w }, value: f.client?.remaining(w) ?? 0 })),
      ),
      gauge(
        'recall_feed_rate_limit_limit',
        'Requests each rate-limit window allows, as the API reported.',
        WINDOWS.flatMap((w) => {
          const limit = rate.limits[LIMIT_OF[w]];
          return typeof limit === 'number' ? [{ labels: { window: w }, value: limit }] : [];
        }),
      ),
      gauge('recall_feed_monthly_credits_remaining', 'Requests left in the monthly quota.', [
        { value: rate.remaining_credits },
      ]),
      gauge(
        'recall_feed_monthly_quota',
        'Requests the monthly quota allows.',
        rate.monthly_quota === undefined ? [] : [{ value: rate.monthly_quota }],
      ),
    );
  }
  if (f.cases) {
    const c = f.cases;
    metrics.push(
      gauge('recall_feed_cases', 'Cases in the archive by state; overdue: open or waiting past their due time.', [
        { labels: { state: 'open' }, value: c.open },
        { labels: { state: 'waiting' }, value: c.waiting },
        { labels: { state: 'overdue' }, value: c.overdue },
      ]),
    );
  }
  if (f.outbox) {
    const o = f.outbox;
    metrics.push(
      gauge('recall_feed_outbox_pending', "Rows sync's actions still owe in the archive's outbox.", [
        { value: o.pending },
      ]),
      gauge('recall_feed_outbox_retrying', 'Of the pending outbox rows, those whose last attempt failed.', [
        { value: o.retrying },
      ]),
      gauge('recall_feed_outbox_failed', 'Outbox rows given up: their action can never succeed as given.', [
        { value: o.failed },
      ]),
    );
  }
  return metrics;
}
