// computeHealth: runs counted, interrupted runs recognised, gaps between what successful syncs saw, sources no run covered.
import { describe, expect, it } from 'vitest';
import { computeHealth } from '../../src/archive/health.js';
import type { SyncRunRow } from '../../src/archive/run-rows.js';

// The period: 2026-11-24 08:00 to 2026-11-25 08:00 UTC.
const period = { fromMs: Date.parse('2026-11-24T08:00:00.000Z'), toMs: Date.parse('2026-11-25T08:00:00.000Z') };
const ALL = ['us_cpsc', 'safety_gate', 'uk_opss'];

let nextId = 1;
function run(started: string, ended: string | null, outcome: string, extra: Partial<SyncRunRow> = {}): SyncRunRow {
  return {
    id: nextId++,
    started_at: started,
    ended_at: ended,
    outcome,
    sources: null,
    served: null,
    hours: 24,
    error: null,
    ...extra,
  };
}

/** Hourly syncs of `hours` from `firstHour` (UTC hour on 2026-11-24) for `count` hours, each taking one minute. */
function hourly(firstIso: string, count: number, hours: number): SyncRunRow[] {
  const out: SyncRunRow[] = [];
  for (let i = 0; i < count; i++) {
    const start = Date.parse(firstIso) + i * 3_600_000;
    out.push(run(new Date(start).toISOString(), new Date(start + 60_000).toISOString(), 'ok', { hours }));
  }
  return out;
}

describe('computeHealth', () => {
  it('is complete after hourly good syncs of the whole day, with the last one as last_ok_sync', () => {
    // 08:00 on the 24th to 07:00 on the 25th: 24 runs.
    const runs = hourly('2026-11-24T08:00:00.000Z', 24, 1);
    const health = computeHealth(runs, period, ALL);
    expect(health).toEqual({
      complete: true,
      runs: { ok: 24, failed: 0, interrupted: 0 },
      last_ok_sync: '2026-11-25T07:01:00.000Z',
      gaps: [],
      sources_missing: [],
    });
  });

  it('counts a failed run and is not complete', () => {
    const runs = hourly('2026-11-24T08:00:00.000Z', 24, 24);
    runs.splice(5, 0, run('2026-11-24T13:30:00.000Z', '2026-11-24T13:30:05.000Z', 'failed', { error: 'HTTP 500' }));
    const health = computeHealth(runs, period, ALL);
    expect(health.runs).toEqual({ ok: 24, failed: 1, interrupted: 0 });
    expect(health.gaps).toEqual([]);
    expect(health.complete).toBe(false);
  });

  it('finds the stretch no 1-hour sync saw when three hourly syncs were missed', () => {
    // Syncs at 08..12 h and 16 h onwards on the 24th: the 12:00 run saw up to 12:01, the 16:00 run
    // from 15:00 on, so 12:01 to 15:00 (2 h 59 min = 2.98 h) was never fetched.
    const runs = [...hourly('2026-11-24T08:00:00.000Z', 5, 1), ...hourly('2026-11-24T16:00:00.000Z', 16, 1)];
    const health = computeHealth(runs, period, ALL);
    expect(health.gaps).toEqual([{ from: '2026-11-24T12:01:00.000Z', to: '2026-11-24T15:00:00.000Z', hours: 2.98 }]);
    expect(health.runs).toEqual({ ok: 21, failed: 0, interrupted: 0 });
    expect(health.complete).toBe(false);
  });

  it('sees no gap where a 24-hour window covers the missed hours', () => {
    const runs = [...hourly('2026-11-24T08:00:00.000Z', 5, 24), ...hourly('2026-11-24T16:00:00.000Z', 16, 24)];
    expect(computeHealth(runs, period, ALL)).toMatchObject({ complete: true, gaps: [] });
  });

  it('reports the end of the period as a gap when the last good sync is more than an hour old', () => {
    // The last sync started at 05:00 on the 25th and ended 05:01: 2 h 59 min before the end of the period.
    const runs = hourly('2026-11-24T08:00:00.000Z', 22, 24);
    const health = computeHealth(runs, period, ALL);
    expect(health.gaps).toEqual([{ from: '2026-11-25T05:01:00.000Z', to: '2026-11-25T08:00:00.000Z', hours: 2.98 }]);
    expect(health.last_ok_sync).toBe('2026-11-25T05:01:00.000Z');
    expect(health.complete).toBe(false);
  });

  it('counts an earlier run only for what it saw: a sync the evening before covers the start of the period', () => {
    // A 24-hour sync at 07:30 on the 24th (before the period) saw up to 07:31; the next is at 10:00 with a
    // 1-hour window, seeing from 09:00: 08:00 to 09:00 is a gap, and the early run is not counted.
    const runs = [
      run('2026-11-24T07:30:00.000Z', '2026-11-24T07:31:00.000Z', 'ok'),
      ...hourly('2026-11-24T10:00:00.000Z', 22, 1),
    ];
    const health = computeHealth(runs, period, ALL);
    expect(health.runs.ok).toBe(22);
    expect(health.gaps).toEqual([{ from: '2026-11-24T08:00:00.000Z', to: '2026-11-24T09:00:00.000Z', hours: 1 }]);
  });

  it('calls a run interrupted when it says so, or when it is still "running" more than an hour before the end', () => {
    const runs = [
      ...hourly('2026-11-24T08:00:00.000Z', 24, 24),
      run('2026-11-24T20:10:00.000Z', '2026-11-24T20:10:09.000Z', 'interrupted'),
      // Killed: never recorded its end; 06:50 is 70 minutes before 08:00.
      run('2026-11-25T06:50:00.000Z', null, 'running'),
      // Started 10 minutes ago: may well be alive, neither counted nor blamed.
      run('2026-11-25T07:50:00.000Z', null, 'running'),
    ];
    const health = computeHealth(runs, period, ALL);
    expect(health.runs).toEqual({ ok: 24, failed: 0, interrupted: 2 });
    expect(health.complete).toBe(false);
  });

  it('names the sources the key may use that no successful run asked for', () => {
    const runs: SyncRunRow[] = hourly('2026-11-24T08:00:00.000Z', 24, 24).map((r) => ({ ...r, sources: ['us_cpsc'] }));
    runs.push(run('2026-11-24T12:30:00.000Z', '2026-11-24T12:30:02.000Z', 'failed', { sources: ['uk_opss'] }));
    const health = computeHealth(runs, period, ALL);
    expect(health.sources_missing).toEqual(['safety_gate', 'uk_opss']);
    expect(health.complete).toBe(false);
  });

  it('is never complete when the sources could not be checked, and then names none missing', () => {
    const runs = hourly('2026-11-24T08:00:00.000Z', 24, 24).map((r) => ({ ...r, sources: ['us_cpsc'] }));
    const health = computeHealth(runs, period, undefined);
    expect(health).toMatchObject({ complete: false, sources_missing: [], gaps: [] });
  });

  it('with no run at all: nothing counted, the whole period a gap, every source missing', () => {
    expect(computeHealth([], period, ALL)).toEqual({
      complete: false,
      runs: { ok: 0, failed: 0, interrupted: 0 },
      last_ok_sync: null,
      gaps: [{ from: '2026-11-24T08:00:00.000Z', to: '2026-11-25T08:00:00.000Z', hours: 24 }],
      sources_missing: ALL,
    });
  });

  it('ignores runs that started after the end of the period', () => {
    const runs = [...hourly('2026-11-24T08:00:00.000Z', 24, 24), run('2026-11-25T08:30:00.000Z', null, 'failed')];
    expect(computeHealth(runs, period, ALL).runs).toEqual({ ok: 24, failed: 0, interrupted: 0 });
  });

  it('judges coverage by what each run was served, not by what it asked for (all the key may use)', () => {
    // A 2-source key synced without --sources all day; a key that may use all three reads the digest.
    const runs: SyncRunRow[] = hourly('2026-11-24T08:00:00.000Z', 24, 24).map((r) => ({
      ...r,
      served: ['us_cpsc', 'uk_opss'],
    }));
    const health = computeHealth(runs, period, ALL);
    expect(health.sources_missing).toEqual(['safety_gate']);
    expect(health.complete).toBe(false);
    // Served all three in one run: covered.
    runs.push(run('2026-11-24T12:30:00.000Z', '2026-11-24T12:30:02.000Z', 'ok', { served: [...ALL] }));
    expect(computeHealth(runs, period, ALL)).toMatchObject({ complete: true, sources_missing: [] });
  });
});
