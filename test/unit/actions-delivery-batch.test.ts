// Batch actions (--email): one attempt per pass for every recall still owed, marked done together, retried with backoff.
import { describe, expect, it } from 'vitest';
import type { Action, AttemptResult } from '../../src/actions/action.js';
import { type BatchAction, DeliveryQueue, type PendingDelivery } from '../../src/actions/delivery-queue.js';

function batch(answers: AttemptResult[], log: string[][]): BatchAction {
  return {
    name: 'email',
    async attemptAll(records) {
      log.push(records.map((r) => String(r.id)));
      return answers.shift() ?? { ok: true };
    },
  };
}

function setup(batchActions: BatchAction[], actions: Action[] = [], restored: PendingDelivery[] = []) {
  const sleeps: number[] = [];
  const batchFailures: string[] = [];
  const snapshots: PendingDelivery[][] = [];
  const q: DeliveryQueue = new DeliveryQueue(
    {
      actions,
      batchActions,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 1,
      persist: async () => {
        snapshots.push(q.snapshot());
      },
      onFailure: () => {
        throw new Error('a batch failure is reported once, through onBatchFailure');
      },
      onBatchFailure: (ds, action, error) => batchFailures.push(`${ds.map((d) => d.id).join(',')} ${action} ${error}`),
      onGiveUp: () => {
        throw new Error('no action here is given up');
      },
      now: () => 0,
    },
    restored,
  );
  return { q, sleeps, batchFailures, snapshots };
}

describe('DeliveryQueue with a batch action', () => {
  it('sends every waiting recall in one attempt and saves them all done in one write', async () => {
    const log: string[][] = [];
    const { q, snapshots } = setup([batch([], log)]);
    for (const id of ['1', '2', '3']) q.add(id, { id: Number(id) });
    expect(await q.deliver()).toEqual({
      delivered: 3,
      pending: 0,
      failed: 0,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log).toEqual([['1', '2', '3']]);
    expect(snapshots).toEqual([[]]);
    // Nothing owed: the next pass sends nothing.
    expect(await q.deliver()).toEqual({
      delivered: 0,
      pending: 0,
      failed: 0,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log).toHaveLength(1);
  });

  it('a failure is retried with backoff within the pass, then waits for the next pass together with newer recalls', async () => {
    const log: string[][] = [];
    const fail = { ok: false, error: 'smtp://mail:587 failed: ECONNREFUSED' };
    const { q, sleeps, batchFailures, snapshots } = setup([batch([fail, fail, fail], log)]);
    q.add('1', { id: 1 });
    q.add('2', { id: 2 });
    expect(await q.deliver()).toEqual({
      delivered: 0,
      pending: 2,
      failed: 3,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    // Full jitter with random() = 1: 1 s, then 2 s; none after the last attempt.
    expect(sleeps).toEqual([1000, 2000]);
    expect(batchFailures).toEqual(Array(3).fill('1,2 email smtp://mail:587 failed: ECONNREFUSED'));
    expect(snapshots.at(-1)?.map((d) => [d.id, d.attempts, d.done])).toEqual([
      ['1', 3, []],
      ['2', 3, []],
    ]);
    q.add('3', { id: 3 });
    expect(await q.deliver()).toEqual({
      delivered: 3,
      pending: 0,
      failed: 0,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log.at(-1)).toEqual(['1', '2', '3']);
  });

  it('restored after a crash, a recall the batch already took is not sent again while another action still owes it', async () => {
    const log: string[][] = [];
    const execLog: string[] = [];
    const exec: Action = {
      name: 'exec',
      async attempt(record) {
        execLog.push(String(record.id));
        return { ok: true };
      },
    };
    const restored: PendingDelivery[] = [
      { id: '1', record: { id: 1 }, done: ['email'], attempts: 1 },
      { id: '2', record: { id: 2 }, done: ['exec'], attempts: 0 },
    ];
    const { q } = setup([batch([], log)], [exec], restored);
    expect(await q.deliver()).toEqual({
      delivered: 2,
      pending: 0,
      failed: 0,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log).toEqual([['2']]);
    expect(execLog).toEqual(['1']);
  });
});
