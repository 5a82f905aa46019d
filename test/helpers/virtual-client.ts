// A RecallFeedClient on a virtual clock: each sleep is recorded and moves the time at once, nothing waits for real.
import { type ClientEvent, type ClientOptions, RecallFeedClient } from '../../src/api/client.js';

export const TEST_KEY = 'dr_test_0123456789abcdef0123456789abcdef01234567';

/** The client against `baseUrl`, its clock starting at `start`; `sleeps` and `events` record what it did. */
export function virtualClient(baseUrl: string, start: number, opts: ClientOptions = {}) {
  let now = start;
  const sleeps: number[] = [];
  const events: ClientEvent[] = [];
  const client = new RecallFeedClient({
    apiKey: TEST_KEY,
    baseUrl,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => 0.5,
    onEvent: (e) => events.push(e),
    ...opts,
  });
  return { client, sleeps, events };
}

/** The ids of every record the client's feed pages through. */
export async function feedIds(client: RecallFeedClient): Promise<number[]> {
  const out: number[] = [];
  for await (const r of client.feed()) out.push(r.id);
  return out;
}
