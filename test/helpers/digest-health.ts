// The monitoring health of a digest whose period was watched without a gap: for unit tests of what the digest shows
// when health is not their subject.
import type { MonitoringHealth } from '../../src/archive/health.js';

export const GOOD_HEALTH: MonitoringHealth = {
  complete: true,
  runs: { ok: 24, failed: 0, interrupted: 0 },
  last_ok_sync: null,
  gaps: [],
  sources_missing: [],
};
