// A third read of batch deliveries: an e-mail that goes in parts keeps to feed's pass budget before each part, as a
// whole message does (docs/cron.md: at most 2 minutes plus the attempt under way); the parts it did not send are left
// as they were, no attempt counted, no error recorded.
import { describe, expect, it } from 'vitest';
import type { BatchAction } from '../../src/actions/batch-action.js';
import { DEFAULT_PASS_BUDGET_MS, DeliveryQueue, type PendingDelivery } from '../../src/actions/delivery-queue.js';

/** An e-mail whose server takes 50 s a part: the whole is refused as too large, each half goes. */
function splitting(clock: { ms: number }, sent: string[][]): BatchAction {
  return {
    name: 'email',
    async attemptAll(records, { beforePart } = {}) {
      clock.ms += 50_000;
      const each = [];
      for (const [from, to] of [
        [0, 2],
        [2, 4],
        [4, 6],
      ] as const) {
        const go = beforePart ? await beforePart(from, to) : true;
        if (go) {
          clock.ms += 50_000;
          sent.push(records.slice(from, to).map((r) => String(r.id)));
        }
        for (let i = from; i < to; i++) each.push(go ? { ok: true } : { ok: false, error: 'not tried' });
      }
      return { ok: false, error: 'part', each };
    },
  };
}

describe('a batch in parts under the pass budget', () => {
  it('stops before the part that would start past the budget; the rest stay pending untouched', async () => {
    const clock = { ms: 0 };
    const sent: string[][] = [];
    const failures: string[] = [];
    let saved: PendingDelivery[] = [];
    const q: DeliveryQueue = new DeliveryQueue({
      actions: [],
      batchActions: [splitting(clock, sent)],
      sleep: async () => {},
      random: () => 1,
      persist: async () => {
        saved = q.snapshot();
      },
      onFailure: (d, _a, error) => failures.push(`${d.id} ${error}`),
      onBatchFailure: (ds, _a, error) => failures.push(`${ds.map((d) => d.id).join(',')} ${error}`),
      onGiveUp: () => {},
      now: () => clock.ms,
    });
    for (const id of ['1', '2', '3', '4', '5', '6']) q.add(id, { id: Number(id) });
    const report = await q.deliver();
    // 50 s for the whole and 50 s a part: the third part would start at 150 s, past the 120 s budget, so it never goes.
    expect(DEFAULT_PASS_BUDGET_MS).toBe(120_000);
    expect(sent).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(report.outOfTime).toBe(true);
    expect(failures).toEqual([]);
    expect(saved.map((d) => [d.id, d.attempts, d.lastError ?? null])).toEqual([
      ['5', 0, null],
      ['6', 0, null],
    ]);
  });
});
