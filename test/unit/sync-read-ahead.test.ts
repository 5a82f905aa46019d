// sync's read-ahead: the next page's request fails (an interrupt aborts it) while the page before is being stored.
// It must surface to the loop on its next turn, never as an unhandled rejection (Node would end the process, exit 1).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readAhead } from '../../src/jobs/archive/read-ahead.js';

const unheard: unknown[] = [];
const listen = (reason: unknown) => unheard.push(reason);
process.on('unhandledRejection', listen);
afterEach(() => {
  unheard.length = 0;
});
afterAll(() => {
  process.off('unhandledRejection', listen);
});

/** Turns of the event loop: long enough for Node to report a rejection nobody handled. */
async function turns(n: number) {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('readAhead', () => {
  it('holds the failed request for the next turn: the loop gets the error, nothing goes unheard', async () => {
    const stopped = new Error('interrupted by SIGTERM');
    async function* pages() {
      yield 1;
      throw stopped;
    }
    const seen: number[] = [];
    let caught: unknown;
    try {
      for await (const page of readAhead(pages())) {
        seen.push(page);
        // Storing the page: the request for the next one has already failed meanwhile.
        await turns(5);
      }
    } catch (err) {
      caught = err;
    }
    await turns(5);
    expect(seen).toEqual([1]);
    expect(caught).toBe(stopped);
    expect(unheard).toEqual([]);
  });

  it('stopped early by the loop, a request that fails later is not left unheard either', async () => {
    let fail: (err: Error) => void = () => {};
    async function* pages() {
      yield 1;
      await new Promise((_, reject) => {
        fail = reject;
      });
    }
    const reader = readAhead(pages());
    expect(await reader.next()).toEqual({ value: 1, done: false });
    const closing = reader.return(undefined);
    fail(new Error('aborted'));
    await closing.catch(() => {});
    await turns(5);
    expect(unheard).toEqual([]);
  });
});
