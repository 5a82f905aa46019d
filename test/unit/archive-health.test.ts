// computeHealth over hand-made sync_runs rows: counts, the stretches no ok sync covered, sources never synced.
import { describe, expect, it } from 'vitest';
import { computeHealth, type SyncRunRow } from '../../src/archive/health.js';

const H = 3_600_000;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
let id = 0;
function run(atH: number, outcome: string, params: Record<string, unknown> = {}): SyncRunRow {
  return {
    id: ++id,
    started_at: iso(T0 + atH * H),
    ended_at: iso(T0 + atH * H + 60_000),
    outcome,
    params: JSON.stringify(params),
    error: null,
  };
}

describe('computeHealth', () => {
  it('a sync every 12 h covers a period that starts a day before the first one: complete', () => {
    const runs = [run(24, 'ok'), run(36, 'ok'), run(40, 'failed'), run(48, 'ok'), run(49, 'interrupted')];
    expect(computeHealth(runs, { fromMs: T0, toMs: T0 + 50 * H }, undefined)).toEqual({
      complete: true,
      runs: { ok: 3, failed: 1, interrupted: 1 },
      last_ok_sync: iso(T0 + 48 * H),
      gaps: [],
      sources_missing: [],
    });
  });

  it('ok syncs more than their window apart leave a gap; a failed run does not fill it', () => {
    // Windows: [0,24] by the run at 24 and [36,60] by the run at 60 (hours 24); the failed one at 40 covers nothing.
    const runs = [run(24, 'ok'), run(40, 'failed'), run(60, 'ok')];
    const h = computeHealth(runs, { fromMs: T0, toMs: T0 + 70 * H }, undefined);
    expect(h.complete).toBe(false);
    expect(h.gaps).toEqual([{ from: iso(T0 + 24 * H), to: iso(T0 + 36 * H), hours: 12 }]);
    expect(h.runs).toEqual({ ok: 2, failed: 1, interrupted: 0 });
  });

  it('a sync asked for fewer hours covers fewer; no ok sync at all is one gap over the whole period', () => {
    const short = computeHealth([run(24, 'ok', { hours: 6 })], { fromMs: T0 + 12 * H, toMs: T0 + 30 * H }, undefined);
    expect(short.gaps).toEqual([{ from: iso(T0 + 12 * H), to: iso(T0 + 18 * H), hours: 6 }]);
    const none = computeHealth([run(5, 'failed')], { fromMs: T0, toMs: T0 + 10 * H }, undefined);
    expect(none).toEqual({
      complete: false,
      runs: { ok: 0, failed: 1, interrupted: 0 },
      last_ok_sync: null,
      gaps: [{ from: iso(T0), to: iso(T0 + 10 * H), hours: 10 }],
      sources_missing: [],
    });
  });

  it('sources allowed but never synced in the period are missing; a sync of all sources covers every one', () => {
    const some = computeHealth([run(10, 'ok', { sources: ['us_cpsc'] })], { fromMs: T0, toMs: T0 + 10 * H }, [
      'us_cpsc',
      'uk_opss',
    ]);
    expect([some.complete, some.sources_missing]).toEqual([false, ['uk_opss']]);
    const all = computeHealth([run(10, 'ok', { sources: null })], { fromMs: T0, toMs: T0 + 10 * H }, [
      'us_cpsc',
      'uk_opss',
    ]);
    expect([all.complete, all.sources_missing]).toEqual([true, []]);
  });
});
