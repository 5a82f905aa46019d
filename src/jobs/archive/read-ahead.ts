// Pages read one ahead: the next page's request is out while this one is stored.
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Yields the pages of `pages` while the request for the next one is already out, so that the server
 * prepares it while this process stores the current one (storing is synchronous work).
 */
export async function* readAhead<T>(pages: AsyncGenerator<T>): AsyncGenerator<T> {
  // Each request in flight is marked as heard: it may fail (an interrupt aborts it) while the page before is still
  // being stored and nothing awaits it yet, which Node would take for an unhandled rejection and end the process
  // with a stack (exit 1) instead of `interrupted` (130). Awaited next turn, it still throws there.
  const ahead = () => {
    const request = pages.next();
    request.catch(() => {});
    return request;
  };
  let next = ahead();
  try {
    for (;;) {
      const result = await next;
      if (result.done) return;
      next = ahead();
      // The request takes a few turns of the event loop to reach the wire; a timer turn covers them
      // (setImmediate alone does not), and the server then prepares the page while this one is stored.
      await delay(0);
      yield result.value;
    }
  } finally {
    await pages.return(undefined);
  }
}
