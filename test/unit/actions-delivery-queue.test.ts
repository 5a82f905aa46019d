// At-least-once delivery: pending until every action succeeded, no repeat of a success, no blocking by one failure.
import { describe, expect, it } from 'vitest';
import type { Action, AttemptResult } from '../../src/actions/action.js';
import { DeliveryQueue, type PendingDelivery } from '../../src/actions/delivery-queue.js';

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

function queue(actions: Action[], restored: PendingDelivery[] = []) {
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
    },
    restored,
  );
  return { q, sleeps, failures, persisted: () => persisted };
}

describe('DeliveryQueue', () => {
  it('an attempt cut short by Ctrl-C is no failure: nothing counted, warned or saved, the recall still pending', async () => {
    const controller = new AbortController();
    // As --exec reports a child killed by the signal: a failed result, not a throw.
    const interrupted: Action = {
      name: 'exec',
      async attempt() {
        controller.abort(new Error('interrupted'));
        return { ok: false, error: 'The operation was aborted' };
      },
    };
    const failures: string[] = [];
    let persisted = 0;
    const q = new DeliveryQueue({
      actions: [interrupted],
      sleep: async () => {},
      signal: controller.signal,
      persist: async () => {
        persisted++;
      },
      onFailure: (d, action, error) => failures.push(`${d.id} ${action} ${error}`),
    });
    q.add('7', { id: 7 });
    const report = await q.deliver();
    expect(report).toEqual({ delivered: 0, pending: 1, failed: 0 });
    expect(failures).toEqual([]);
    expect(persisted).toBe(0);
    expect(q.snapshot()).toEqual([{ id: '7', record: { id: 7 }, done: [], attempts: 0 }]);
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
    expect(await q.deliver()).toEqual({ delivered: 2, pending: 0, failed: 0 });
    expect(log).toEqual(['exec:1', 'webhook:1', 'exec:2', 'webhook:2']);
    expect(q.snapshot()).toEqual([]);
  });

  it('a failing recall is retried with backoff, then waits for the next pass without blocking the others', async () => {
    const log: string[] = [];
    const fail = { ok: false, error: 'exit code 1' };
    const { q, sleeps, failures } = queue([scripted('exec', { '1': [fail, fail, fail] }, log)]);
    q.add('1', { id: 1 });
    q.add('2', { id: 2 });
    expect(await q.deliver()).toEqual({ delivered: 1, pending: 1, failed: 3 });
    expect(log).toEqual(['exec:1', 'exec:1', 'exec:1', 'exec:2']);
    expect(sleeps).toEqual([1000, 2000]);
    expect(failures).toEqual(['1 exec exit code 1', '1 exec exit code 1', '1 exec exit code 1']);
    expect(q.snapshot()).toEqual([
      { id: '1', record: { id: 1 }, done: [], attempts: 3, lastError: 'exec: exit code 1' },
    ]);
    expect(await q.deliver()).toEqual({ delivered: 1, pending: 0, failed: 0 });
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
    expect(await again.q.deliver()).toEqual({ delivered: 1, pending: 0, failed: 0 });
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
    expect(await q.deliver()).toEqual({ delivered: 1, pending: 1, failed: 2 });
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
});
