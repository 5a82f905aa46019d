// The monitor URL is a secret (its path is the check's token): an --exec command never gets RECALL_FEED_MONITOR.
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../src/actions/child-env.js';

describe('childEnv and the ops settings', () => {
  it('drops RECALL_FEED_MONITOR; keeps RECALL_FEED_METRICS_FILE and RECALL_FEED_LOG_FORMAT (no secret in them)', () => {
    expect(
      childEnv({
        RECALL_FEED_MONITOR: 'https://hc-ping.com/5f1d3c2a-9e8b-4c7d-a6f5-0b1e2d3c4b5a',
        RECALL_FEED_METRICS_FILE: '/var/lib/node_exporter/recall_feed.prom',
        RECALL_FEED_LOG_FORMAT: 'json',
      }),
    ).toEqual({
      RECALL_FEED_METRICS_FILE: '/var/lib/node_exporter/recall_feed.prom',
      RECALL_FEED_LOG_FORMAT: 'json',
    });
  });
});
