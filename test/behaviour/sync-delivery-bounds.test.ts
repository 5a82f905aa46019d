// sync's actions, delivered from the archive's outbox, keep feed's bounds (docs/cron.md, "Bounds on a run's
// deliveries"): an action rests after timeouts on two recalls in a row, the time budget is checked before each
// attempt, and one warning says how many deliveries stay pending in the outbox. The clock is injected: the webhook's
// answers move it, nothing sleeps for real.
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { handlerServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** The outbox's rows by state, as the archive holds them. */
async function outboxStates(archive: Awaited<ReturnType<typeof testArchive>>): Promise<Record<string, number>> {
  const rows = await archive.rows<{ state: string; n: number }>(
    'SELECT state, count(*) AS n FROM outbox GROUP BY state',
  );
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

const lines = (text: string, part: string) => text.split('\n').filter((l) => l.includes(part));

describe('sync --exec/--webhook: the bounds of a run’s deliveries', () => {
  it('a webhook that never answers rests after timeouts on two recalls; one warning counts what the outbox still owes', async () => {
    sandbox = await sandboxFor({ seed: 401, recordCount: 6 });
    const archive = await testArchive('sqlite');
    // Reads each request and never answers.
    const silent = await handlerServer(() => {});
    const r = await runMainAgainst(sandbox, [
      'sync',
      '--db',
      archive.db,
      '--timeout',
      '0.3',
      '--webhook',
      `${silent.url}/hooks/T0/B0/secret-token`,
    ]);
    expect(r.code).toBe(0);
    expect(silent.requests).toHaveLength(2);
    expect(lines(r.stderr, 'webhook failed for recall')).toHaveLength(2);
    const warning = `warning: webhook ${silent.url}/… timed out on two recalls in a row: stopped delivering; 6 deliveries stay pending in the archive's outbox; the next sync retries them`;
    expect(lines(r.stderr, 'stopped delivering')).toEqual([warning]);
    expect(r.stderr).not.toContain('secret-token');
    expect(await outboxStates(archive)).toEqual({ pending: 6 });
  }, 60_000);

  it('an --exec that times out rests the same way; the warning comes off a terminal, without -v', async () => {
    sandbox = await sandboxFor({ seed: 402, recordCount: 5 });
    const archive = await testArchive('sqlite');
    const ran = path.join(tempDir(), 'ran');
    const exec = `sh -c 'echo "$1" >> ${ran}; exec sleep 30' sh {id}`;
    const args = ['sync', '--db', archive.db, '--exec-timeout', '0.2', '--exec', exec];
    const r = await runMainAgainst(sandbox, args, { env: { PATH: process.env.PATH } });
    expect(r.code).toBe(0);
    expect(readFileSync(ran, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(lines(r.stderr, 'exec failed for recall')).toHaveLength(2);
    expect(lines(r.stderr, 'stopped delivering')).toEqual([
      "warning: exec timed out on two recalls in a row: stopped delivering; 5 deliveries stay pending in the archive's outbox; the next sync retries them",
    ]);
    expect(await outboxStates(archive)).toEqual({ pending: 5 });
  }, 60_000);

  it('the budget is checked before each attempt: a slow receiver gets the 2 minutes and the attempt under way', async () => {
    sandbox = await sandboxFor({ seed: 403, recordCount: 20 });
    const archive = await testArchive('sqlite');
    const clock = fakeClock();
    /** Each post takes the receiver 50 s, by the run's clock. */
    const POST_MS = 50_000;
    let firstPost: number | undefined;
    const hook = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
      req.resume();
      req.on('end', () => {
        firstPost ??= clock.now();
        clock.advance(POST_MS);
        res.writeHead(204).end();
      });
    });
    const r = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', `${hook.url}/hook`], { clock });
    expect(r.code).toBe(0);
    // Posts start at 0, 50 and 100 s, within the 120 s; at 150 s the budget is spent, mid-claim.
    expect(hook.requests).toHaveLength(3);
    expect(clock.now() - firstPost!).toBe(3 * POST_MS);
    expect(lines(r.stderr, 'warning:')).toEqual([
      "warning: deliveries used the 120 s a run allows them: stopped delivering; 17 deliveries stay pending in the archive's outbox; the next sync retries them",
    ]);
    expect(await outboxStates(archive)).toEqual({ done: 3, pending: 17 });
  }, 60_000);
});
