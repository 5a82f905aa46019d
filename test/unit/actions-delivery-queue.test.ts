// At-least-once delivery: pending until every action succeeded, no repeat of a success, no blocking by one failure.
import { describe, expect, it } from 'vitest';
import type { Action, AttemptResult } from '../../src/actions/action.js';
import { cutShortWarning } from '../../src/jobs/watch/deliveries.js';
import { DeliveryQueue, type DeliveryQueueOptions, type PendingDelivery } from '../../src/actions/delivery-queue.js';

/** An action that answers from a script per recall id, and logs every call. */
function scripted(name: string, answers: Record<string, AttemptResult[]>, log: string[]): Action {
  return {
    name,
    async attempt(record) {
      const id = String(record.id);
      log.push(`${name}:${id}`);
      return answers[id]?.shift() ?? { ok: true };
    },
  };
}

function queue(actions: Action[], restored: PendingDelivery[] = [], extra: Partial<DeliveryQueueOptions> = {}) {
  const sleeps: number[] = [];
  const failures: string[] = [];
  let persisted = 0;
  const q = new DeliveryQueue(
    {
      actions,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 1,
      persist: async () => {
        persisted++;
      },
      onFailure: (d, action, error) => failures.push(`${d.id} ${action} ${error}`),
      onGiveUp: (d, action, error) => failures.push(`${d.id} ${action} ${error} (given up)`),
      ...extra,
    },
    restored,
  );
  return { q, sleeps, failures, persisted: () => persisted };
}

describe('DeliveryQueue', () => {
  it('an attempt that fails as the run stops is recorded as any failure, and no other attempt starts', async () => {
    const controller = new AbortController();
    // The run is stopped while the attempt is under way; the attempt, let finish, then fails (a 503, a timeout).
    let attempts = 0;
    const failing: Action = {
      name: 'webhook',
      async attempt() {
        attempts++;
        controller.abort(new Error('interrupted'));
        return { ok: false, error: '503 Service Unavailable' };
      },
    };
    const failures: string[] = [];
    let persisted = 0;
    const q = new DeliveryQueue({
      actions: [failing],
      sleep: async () => {},
      signal: controller.signal,
      persist: async () => {
        persisted++;
      },
      onFailure: (d, action, error) => failures.push(`${d.id} ${action} ${error}`),
      onGiveUp: (d, action, error) => failures.push(`${d.id} ${action} ${error} (given up)`),
    });
    q.add('7', { id: 7 });
    q.add('8', { id: 8 });
    const report = await q.deliver();
    // One attempt only (no retry, no next recall after the stop); its failure counted, warned and saved.
    expect(attempts).toBe(1);
    expect(report).toEqual({ delivered: 0, pending: 2, failed: 1, givenUp: 0, rested: [], outOfTime: false });
    expect(failures).toEqual(['7 webhook 503 Service Unavailable']);
    expect(persisted).toBe(1);
    expect(q.snapshot()).toEqual([
      { id: '7', record: { id: 7 }, done: [], attempts: 1, lastError: 'webhook: 503 Service Unavailable' },
      { id: '8', record: { id: 8 }, done: [], attempts: 0 },
    ]);
  });

  it('queues a recall once however often it is added', async () => {
    const log: string[] = [];
    const { q } = queue([scripted('exec', {}, log)]);
    q.add('1', { id: 1 });
    q.add('1', { id: 1 });
    expect(q.snapshot().map((d) => d.id)).toEqual(['1']);
    await q.deliver();
    // Delivered and forgotten: the same id may be queued again later.
    q.add('1', { id: 1 });
    expect(q.snapshot().map((d) => d.id)).toEqual(['1']);
  });

  it('delivers in order, one at a time, and forgets what is done', async () => {
    const log: string[] = [];
    const { q } = queue([scripted('exec', {}, log), scripted('webhook', {}, log)]);
    q.add('1', { id: 1 });
    q.add('2', { id: 2 });
    q.add('1', { id: 1 });
    expect(await q.deliver()).toEqual({
      delivered: 2,
      pending: 0,
      failed: 0,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log).toEqual(['exec:1', 'webhook:1', 'exec:2', 'webhook:2']);
    expect(q.snapshot()).toEqual([]);
  });

  it('a failing recall is retried with backoff, then waits for the next pass without blocking the others', async () => {
    const log: string[] = [];
    const fail = { ok: false, error: 'exit code 1' };
    const { q, sleeps, failures } = queue([scripted('exec', { '1': [fail, fail, fail] }, log)]);
    q.add('1', { id: 1 });
    q.add('2', { id: 2 });
    expect(await q.deliver()).toEqual({
      delivered: 1,
      pending: 1,
      failed: 3,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log).toEqual(['exec:1', 'exec:1', 'exec:1', 'exec:2']);
    expect(sleeps).toEqual([1000, 2000]);
    expect(failures).toEqual(['1 exec exit code 1', '1 exec exit code 1', '1 exec exit code 1']);
    expect(q.snapshot()).toEqual([
      { id: '1', record: { id: 1 }, done: [], attempts: 3, lastError: 'exec: exit code 1' },
    ]);
    expect(await q.deliver()).toEqual({
      delivered: 1,
      pending: 0,
      failed: 0,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
  });

  it('a refused attempt (a webhook 4xx) is not retried in the pass; the recall stays pending for the next', async () => {
    const log: string[] = [];
    const refused = { ok: false, refused: true, error: 'answered HTTP 404' };
    const { q, sleeps, failures } = queue([scripted('webhook', { '1': [refused, refused] }, log)]);
    q.add('1', { id: 1 });
    q.add('2', { id: 2 });
    expect(await q.deliver()).toEqual({
      delivered: 1,
      pending: 1,
      failed: 1,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log).toEqual(['webhook:1', 'webhook:2']);
    expect(sleeps).toEqual([]);
    expect(failures).toEqual(['1 webhook answered HTTP 404']);
    expect(q.snapshot()).toEqual([
      { id: '1', record: { id: 1 }, done: [], attempts: 1, lastError: 'webhook: answered HTTP 404' },
    ]);
    // The next pass tries it again, once.
    expect((await q.deliver()).pending).toBe(1);
    expect(log).toEqual(['webhook:1', 'webhook:2', 'webhook:1']);
    expect((await q.deliver()).pending).toBe(0);
  });

  it('an action that succeeded is never run again for that recall, also after a restart', async () => {
    const log: string[] = [];
    const fail = { ok: false, error: 'HTTP 500' };
    const first = queue([scripted('exec', {}, log), scripted('webhook', { '1': [fail, fail, fail] }, log)]);
    first.q.add('1', { id: 1 });
    await first.q.deliver();
    const saved = first.q.snapshot();
    expect(saved[0]?.done).toEqual(['exec']);
    const again = queue([scripted('exec', {}, log), scripted('webhook', {}, log)], saved);
    expect(await again.q.deliver()).toEqual({
      delivered: 1,
      pending: 0,
      failed: 0,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(log.filter((l) => l === 'exec:1')).toHaveLength(1);
  });

  it('honours Retry-After within a pass, and leaves a long one to the next pass', async () => {
    const log: string[] = [];
    const { q, sleeps } = queue([
      scripted(
        'webhook',
        {
          '1': [{ ok: false, error: '429', retryAfterMs: 5000 }],
          '2': [{ ok: false, error: '429', retryAfterMs: 3_600_000 }],
        },
        log,
      ),
    ]);
    q.add('1', { id: 1 });
    q.add('2', { id: 2 });
    expect(await q.deliver()).toEqual({
      delivered: 1,
      pending: 1,
      failed: 2,
      givenUp: 0,
      rested: [],
      outOfTime: false,
    });
    expect(sleeps).toEqual([5000]);
    expect(log).toEqual(['webhook:1', 'webhook:1', 'webhook:2']);
  });

  it('persists after every failure, after a success that leaves the recall owing more, and once when it is done', async () => {
    const one = queue([scripted('exec', { '1': [{ ok: false }] }, [])]);
    one.q.add('1', { id: 1 });
    await one.q.deliver();
    // the failure, then the recall done (its only action's success is saved with it)
    expect(one.persisted()).toBe(2);
    const fail = { ok: false, error: 'HTTP 500' };
    const two = queue([scripted('exec', {}, []), scripted('webhook', { '1': [fail, fail, fail] }, [])]);
    two.q.add('1', { id: 1 });
    await two.q.deliver();
    // exec's success on its own (a restart must not repeat it), then three webhook failures
    expect(two.persisted()).toBe(4);
  });

  it('an action that can never succeed for a recall is given up for it, once, while its other actions go on', async () => {
    const log: string[] = [];
    const tooLong = { ok: false, permanent: true, error: 'an argument is longer than the system allows (E2BIG)' };
    const fail = { ok: false, error: 'HTTP 500' };
    const first = queue([
      scripted('exec', { '1': [tooLong] }, log),
      scripted('webhook', { '1': [fail, fail, fail] }, log),
    ]);
    first.q.add('1', { id: 1 });
    first.q.add('2', { id: 2 });
    expect(await first.q.deliver()).toEqual({
      delivered: 1,
      pending: 1,
      failed: 4,
      givenUp: 1,
      rested: [],
      outOfTime: false,
    });
    // One exec attempt only: retrying the same arguments cannot help.
    expect(log.filter((l) => l === 'exec:1')).toHaveLength(1);
    expect(first.failures[0]).toBe('1 exec an argument is longer than the system allows (E2BIG) (given up)');
    const saved = first.q.snapshot();
    expect(saved).toMatchObject([{ id: '1', done: [], gaveUp: ['exec'] }]);
    // After a restart the webhook still owes it; exec is not tried again, and the recall is then done.
    const again = queue([scripted('exec', {}, log), scripted('webhook', {}, log)], saved);
    expect(await again.q.deliver()).toMatchObject({ delivered: 1, pending: 0, failed: 0 });
    expect(log.filter((l) => l === 'exec:1')).toHaveLength(1);
    expect(again.q.snapshot()).toEqual([]);
  });

  it('a recall whose only action is given up is not pending, and not counted as delivered', async () => {
    const { q } = queue([scripted('exec', { '1': [{ ok: false, permanent: true, error: 'E2BIG' }] }, [])]);
    q.add('1', { id: 1 });
    expect(await q.deliver()).toMatchObject({ delivered: 0, pending: 0, givenUp: 1 });
    expect(q.snapshot()).toEqual([]);
  });

  it('a receiver that times out on two recalls in a row rests for the pass; the other actions go on', async () => {
    const log: string[] = [];
    const silent: Action = {
      name: 'webhook',
      async attempt(record) {
        log.push(`webhook:${String(record.id)}`);
        return { ok: false, timedOut: true, error: 'no answer within the timeout' };
      },
    };
    const { q } = queue([scripted('exec', {}, log), silent]);
    for (const id of [1, 2, 3, 4, 5]) q.add(String(id), { id });
    const report = await q.deliver();
    expect(report).toEqual({ delivered: 0, pending: 5, failed: 4, givenUp: 0, rested: ['webhook'], outOfTime: false });
    // Three attempts for the first recall, one for the second, then none: exec still ran for each.
    expect(log.filter((l) => l.startsWith('webhook'))).toEqual(['webhook:1', 'webhook:1', 'webhook:1', 'webhook:2']);
    expect(log.filter((l) => l.startsWith('exec'))).toEqual(['exec:1', 'exec:2', 'exec:3', 'exec:4', 'exec:5']);
    // The next pass tries again.
    await q.deliver();
    expect(log.filter((l) => l === 'webhook:1')).toHaveLength(6);
  });

  it('timeouts with a success between do not rest the receiver', async () => {
    const log: string[] = [];
    const timeout = { ok: false, timedOut: true, error: 'no answer within the timeout' };
    const { q } = queue([scripted('webhook', { '1': [timeout], '2': [timeout], '3': [timeout] }, log)]);
    for (const id of [1, 2, 3]) q.add(String(id), { id });
    expect(await q.deliver()).toMatchObject({ delivered: 3, pending: 0, rested: [] });
  });

  it('a pass stops at its time budget; the rest waits for the next pass', async () => {
    let clock = 0;
    const log: string[] = [];
    const slow: Action = {
      name: 'exec',
      async attempt(record) {
        log.push(`exec:${String(record.id)}`);
        clock += 40_000;
        return { ok: true };
      },
    };
    const { q } = queue([slow], [], { now: () => clock, passBudgetMs: 100_000 });
    for (const id of [1, 2, 3, 4, 5]) q.add(String(id), { id });
    // Started at 0, 40 and 80 s; at 120 s the budget is spent.
    expect(await q.deliver()).toEqual({ delivered: 3, pending: 2, failed: 0, givenUp: 0, rested: [], outOfTime: true });
    expect(q.snapshot().map((d) => d.id)).toEqual(['4', '5']);
    expect(await q.deliver()).toMatchObject({ delivered: 2, pending: 0, outOfTime: false });
  });

  it('no backoff sleep runs past the budget', async () => {
    let clock = 0;
    const fail = { ok: false, error: 'HTTP 500' };
    const { q } = queue([scripted('webhook', { '1': [fail, fail, fail] }, [])], [], {
      now: () => clock,
      passBudgetMs: 1500,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    q.add('1', { id: 1 });
    q.add('2', { id: 2 });
    // The first backoff (1 s) fits; the second (2 s) would end past 1.5 s: the pass stops there.
    expect(await q.deliver()).toMatchObject({ delivered: 0, pending: 2, failed: 2, outOfTime: true });
    // Only the first backoff was slept; recall 2 was not reached.
    expect(clock).toBe(1000);
  });

  it('a pass cut short is said in one warning, naming why and what waits', () => {
    const base = { delivered: 1, pending: 5, failed: 4, givenUp: 0, rested: [], outOfTime: false };
    expect(cutShortWarning(base, 120_000, '')).toBeUndefined();
    expect(cutShortWarning({ ...base, rested: ['webhook'] }, 120_000, 'https://hooks.example.com/…')).toBe(
      'webhook https://hooks.example.com/… timed out on two recalls in a row: stopped delivering; 5 recalls stay pending for the next run',
    );
    expect(cutShortWarning({ ...base, pending: 1, rested: ['exec'], outOfTime: true }, 120_000, '')).toBe(
      'exec timed out on two recalls in a row, and deliveries used the 120 s a run allows them: stopped delivering; 1 recall stays pending for the next run',
    );
  });
});
