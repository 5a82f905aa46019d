// The archive's reads for a digest on both engines: the runs around a period, and the recalls its runs stored first (new) or anew (updated).
import { describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/index.js';
import { sampleRecords, tempFolder } from '../helpers/archive.js';
import { ENGINES, freshDatabase } from '../helpers/postgres.js';
import { until } from '../helpers/wait.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-24T06:00:00.000Z');

describe.each(ENGINES)('$engine: Archive.storedIn and Archive.syncRuns', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  /** An instant after every commit so far and before every later one (stamps are the archive's clock, this host's). */
  const boundary = async () => {
    const at = Date.now() + 2;
    await until('the clock to pass a boundary', () => Date.now() > at);
    return at;
  };

  it('splits new from updated by commit stamp, applies sources and filters, and lists the runs around', async () => {
    const [a, b, c, d] = sampleRecords(4, 7).map((r, i) => ({
      ...r,
      data_source: i === 3 ? 'uk_opss' : 'us_cpsc',
      risk_severity: i === 2 ? 'low' : 'serious',
    }));
    const where = engine === 'sqlite' ? tempFolder('rf-period-').file('p.db') : (await freshDatabase('rf_period')).url;
    const archive = await openArchive(where, { create: true });
    try {
      // A day before the period: a and b. In the period: a new version of a, then c and d.
      const early = await archive.beginRun({ sources: null, hours: 24 }, T0 - 26 * H);
      await archive.upsertPage([a!, b!], early, Date.now);
      await archive.finishRun(early, 'ok', T0 - 26 * H + 60_000);
      const fromMs = await boundary();
      const before = await archive.beginRun({ sources: ['us_cpsc'], hours: 1 }, T0 - 2 * H);
      await archive.finishRun(before, 'failed', T0 - 2 * H + 1000, 'HTTP 500');
      const inside = await archive.beginRun({ sources: null, hours: 24 }, T0 + H);
      await archive.upsertPage(
        [{ ...a!, updated_at: '2026-11-24T06:30:00', alert_status: 'updated' }, c!, d!],
        inside,
        Date.now,
      );
      await archive.finishRun(inside, 'ok', T0 + H + 60_000);
      const toMs = await boundary();
      // Stored after the period: in none of its lists.
      const after = await archive.beginRun({ sources: null, hours: 24 }, T0 + 2 * H);
      await archive.upsertPage([{ ...sampleRecords(5, 7)[4]!, data_source: 'us_cpsc' }], after, Date.now);
      const stamped = { fromMs, toMs };
      const period = { fromMs: T0, toMs: T0 + 24 * H };
      expect(await archive.commitHorizon()).toBeGreaterThanOrEqual(toMs);

      const all = await archive.storedIn(stamped, {});
      expect(all.new.map((r) => r.id).sort()).toEqual([c!.id, d!.id].sort());
      expect(all.updated.map((r) => r.id)).toEqual([a!.id]);
      expect(all.updated[0]!.alert_status).toBe('updated');

      const ukOnly = await archive.storedIn(stamped, { sources: ['uk_opss'] });
      expect(ukOnly.new.map((r) => r.id)).toEqual([d!.id]);
      expect(ukOnly.updated).toEqual([]);
      const serious = await archive.storedIn(stamped, { filter: { severity: ['serious'] } });
      expect(serious.new.map((r) => r.id)).toEqual([d!.id]);
      expect(serious.updated.map((r) => r.id)).toEqual([a!.id]);

      // The run 26 h before is beyond the 25 h look-back; the failed one 2 h before is kept for its view.
      const runs = await archive.syncRuns(period);
      expect(runs.map((r) => [r.outcome, r.sources, r.hours, r.started_at])).toEqual([
        ['failed', ['us_cpsc'], 1, new Date(T0 - 2 * H).toISOString()],
        ['ok', null, 24, new Date(T0 + H).toISOString()],
        ['running', null, 24, new Date(T0 + 2 * H).toISOString()],
      ]);
      expect(runs[0]!.error).toBe('HTTP 500');
    } finally {
      await archive.close();
    }
  });
});
