// A run's delivery budget (2 minutes, docs/cron.md "Bounds on a run's deliveries") is measured on the monotonic clock:
// a wall clock that steps back an hour mid-delivery (NTP, a VM resumed) does not hold the run an hour longer.
import type http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { handlerServer } from '../helpers/handler-server.js';
import { type FakeClock, fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const HOUR = 3_600_000;
/** Each post takes the receiver 50 s, by the run's clocks. */
const POST_MS = 50_000;

/** A webhook receiver that takes POST_MS per post, and steps the wall clock back an hour at its first. */
async function slowReceiverSteppingBack(clock: FakeClock) {
  let posts = 0;
  const hook = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (posts++ === 0) clock.step(-HOUR);
      clock.advance(POST_MS);
      res.writeHead(204).end();
    });
  });
  return { url: `${hook.url}/hook`, posts: () => posts };
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));

describe('the delivery budget with the wall clock stepped back an hour at the first post', () => {
  it('feed --state --webhook: posts at 0, 50 and 100 s, then stops at 150 s, as without the step', async () => {
    const sandbox = await sandboxFor({ seed: 404, recordCount: 20 });
    const clock = fakeClock();
    const hook = await slowReceiverSteppingBack(clock);
    const state = path.join(tempDir('rf-budget-step-'), 'seen.json');
    const r = await runMainAgainst(sandbox, ['feed', '--hours', '24', '--state', state, '--webhook', hook.url], {
      clock,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(hook.posts()).toBe(3);
    expect(warnings(r.stderr)).toEqual([
      'warning: deliveries used the 120 s a run allows them: stopped delivering; 17 recalls stay pending for the next run',
    ]);
  });

  it('sync --webhook (the outbox): the same 3 posts, then the rest waits in the outbox', async () => {
    const sandbox = await sandboxFor({ seed: 403, recordCount: 20 });
    const archive = await testArchive('sqlite');
    const clock = fakeClock();
    const hook = await slowReceiverSteppingBack(clock);
    const r = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url], { clock });
    expect(r.code, r.stderr).toBe(0);
    expect(hook.posts()).toBe(3);
    expect(warnings(r.stderr)).toEqual([
      "warning: deliveries used the 120 s a run allows them: stopped delivering; 17 deliveries stay pending in the archive's outbox; the next sync retries them",
    ]);
  }, 60_000);
});
