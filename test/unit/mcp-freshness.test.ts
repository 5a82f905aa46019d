// What every MCP answer says of its archive: fresh and complete, stale, or incomplete, and why, the warning first.
import { describe, expect, it } from 'vitest';
import type { SyncRunRow } from '../../src/archive/run-rows.js';
import type { ArchiveStore } from '../../src/archive/store.js';
import { freshnessLine, freshnessOf, STALE_AFTER_MS } from '../../src/mcp/freshness.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-06-01T12:00:00Z');
const SOURCES = ['us_cpsc', 'eu_safety_gate'];

/** An hourly sync of `hours` windows, every source, each ok unless `outcome` says otherwise. */
function run(id: number, startedMs: number, outcome = 'ok', served: string[] | null = SOURCES): SyncRunRow {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id,
    started_at: iso(startedMs),
    ended_at: iso(startedMs + 60_000),
    outcome,
    sources: null,
    served,
    hours: 24,
    error: null,
  };
}

/** The archive's sync runs, as the period asks for them: only what freshnessOf reads. */
function archiveOf(runs: SyncRunRow[]): ArchiveStore {
  return {
    syncRuns: async (p: { fromMs: number; toMs: number }) =>
      runs.filter((r) => Date.parse(r.started_at) >= p.fromMs - 25 * HOUR && Date.parse(r.started_at) < p.toMs),
  } as unknown as ArchiveStore;
}

const hourly = (until: number, from = until - 30 * HOUR) =>
  Array.from({ length: Math.floor((until - from) / HOUR) + 1 }, (_, i) => run(i + 1, from + i * HOUR));

describe('freshnessOf', () => {
  it('an hourly sync of every source is fresh and complete, and says so without a warning', async () => {
    const f = await freshnessOf(archiveOf(hourly(NOW - 10 * 60_000)), NOW, SOURCES);
    expect(f).toEqual({
      as_of: '2026-06-01T12:00:00.000Z',
      last_ok_sync: '2026-06-01T11:51:00.000Z',
      stale: false,
      complete: true,
      problems: [],
    });
    expect(freshnessLine(f)).toBe(
      'Archive fresh: last successful sync 2026-06-01T11:51:00.000Z; monitoring complete over the last 24 h.',
    );
  });

  it(`is stale ${STALE_AFTER_MS / HOUR} hours after the last successful sync, and says when that was first`, async () => {
    const f = await freshnessOf(archiveOf(hourly(NOW - 5 * HOUR)), NOW, SOURCES);
    expect(f.stale).toBe(true);
    expect(f.complete).toBe(false);
    expect(f.problems[0]).toBe('the last successful sync ended 5 h ago (2026-06-01T07:01:00.000Z)');
    expect(freshnessLine(f)).toMatch(/^WARNING, STALE ARCHIVE: the last successful sync ended 5 h ago/);
  });

  it('with no sync at all, says to run one', async () => {
    const f = await freshnessOf(archiveOf([]), NOW, SOURCES);
    expect(f).toMatchObject({ stale: true, complete: false, last_ok_sync: null });
    expect(f.problems[0]).toBe('no successful sync in the last 31 days: run `recall-feed sync`');
  });

  it('a last successful sync older than the day judged is still given, with how long ago it ended', async () => {
    for (const hoursBefore of [50, 24 * 20]) {
      const f = await freshnessOf(archiveOf([run(1, NOW - hoursBefore * HOUR)]), NOW, SOURCES);
      const ended = new Date(NOW - hoursBefore * HOUR + 60_000).toISOString();
      expect(f).toMatchObject({ stale: true, complete: false, last_ok_sync: ended });
      expect(f.problems[0]).toBe(`the last successful sync ended ${Math.round(hoursBefore / 24)} days ago (${ended})`);
    }
  });

  it('fresh but incomplete: a failed run, a source no run covered, or sources never checked', async () => {
    const runs = hourly(NOW - 10 * 60_000);
    runs.push(run(99, NOW - 3 * HOUR, 'failed'));
    const failed = await freshnessOf(archiveOf(runs), NOW, SOURCES);
    expect(failed).toMatchObject({ stale: false, complete: false });
    expect(failed.problems).toEqual(['1 sync run(s) failed in the last 24 hours']);
    expect(freshnessLine(failed)).toMatch(/^WARNING, INCOMPLETE MONITORING: 1 sync run\(s\) failed/);

    const narrow = hourly(NOW - 10 * 60_000).map((r) => ({ ...r, served: ['us_cpsc'] }));
    const missing = await freshnessOf(archiveOf(narrow), NOW, SOURCES);
    expect(missing.problems).toEqual(['no sync covered the sources eu_safety_gate']);

    const unchecked = await freshnessOf(archiveOf(hourly(NOW - 10 * 60_000)), NOW, undefined);
    expect(unchecked.complete).toBe(false);
    expect(unchecked.problems).toEqual([
      'the sources the key may use were not checked (no API key, or the API has not answered), so monitoring cannot be called complete',
    ]);
  });
});
