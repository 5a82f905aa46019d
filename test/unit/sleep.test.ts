// The abortable sleep: a wait past setTimeout's limit is slept in parts instead of firing at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, sleep } from '../../src/api/sleep.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('sleep', () => {
  it('waits the whole of a wait longer than one timer can hold', async () => {
    vi.useFakeTimers();
    let done = false;
    const wait = sleep(MAX_TIMER_MS + 5_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(done).toBe(true);
  });

  it('rejects with the signal reason when aborted, also in a later part', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const wait = sleep(MAX_TIMER_MS * 2, controller.signal);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 10);
    controller.abort(new Error('stop'));
    await expect(wait).rejects.toThrow('stop');
  });
});
