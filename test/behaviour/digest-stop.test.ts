// `digest` stopped in order (Ctrl-C, SIGTERM: the run's abort signal) while its e-mail or post is under way: that
// delivery ends (the receiver has it), no other starts, and the run ends with exit 130. A `--since last` digest whose
// every delivery ended that way records its end, so the next digest does not send the period again; one stopped before
// its post started covers the period again (docs/digest.md). The receivers stop the run as the message arrives and
// answer a moment later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { bodyServer } from '../helpers/handler-server.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { mailFlags, smtpServer } from '../helpers/smtp.js';

const ANSWER_AFTER_MS = 150;

interface Period {
  period: { from: string; to: string };
}

/** A receiver that stops the run (as SIGTERM would) as the first post arrives and answers it 200 a moment later. */
async function stoppingReceiver(stop?: AbortController) {
  const bodies: Period[] = [];
  const server = await bodyServer((body, _req, res) => {
    bodies.push(JSON.parse(body) as Period);
    if (bodies.length > 1 || !stop) return void res.end('ok');
    stop.abort(new InterruptedError('SIGTERM'));
    setTimeout(() => res.end('ok'), ANSWER_AFTER_MS);
  });
  return { ...server, hook: `${server.url}/hooks/secret-token`, bodies };
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 12, seed: 41 });
});
afterAll(async () => {
  await sandbox.close();
});

describe.each(ENGINES)('digest ($engine) stopped while its delivery is under way', ({ engine, available }) => {
  let archive: TestArchive;
  beforeAll(async () => {
    if (!available) return;
    archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
  });

  it.skipIf(!available)(
    '--since last --webhook: the post ends and is recorded; exit 130; the next digest starts where it ended',
    async () => {
      const stop = new AbortController();
      const receiver = await stoppingReceiver(stop);
      const args = ['digest', '--db', archive.db, '--since', 'last', '--webhook', receiver.hook];
      const first = await runMainAgainst(sandbox, args, { signal: stop.signal });
      expect(first.code).toBe(130);
      expect(receiver.bodies).toHaveLength(1);
      expect(first.stderr).toMatch(
        /stopping once the digest post to http:\/\/127\.0\.0\.1:\d+\/\S+ under way ends \(within \d+ s\)/,
      );
      expect(first.stderr).not.toContain('secret-token');
      expect(first.stderr).not.toContain('trying again');
      const sent = receiver.bodies[0] as Period;

      const next = await runMainAgainst(sandbox, ['digest', '--db', archive.db, '--since', 'last', '-f', 'json']);
      await receiver.close();
      expect(next.code).toBe(0);
      expect((JSON.parse(next.stdout) as Period).period.from).toBe(sent.period.to);
    },
  );

  it.skipIf(!available)(
    '--since last --email --webhook: the e-mail under way ends, no post starts, and the next digest covers the period again',
    async () => {
      const stop = new AbortController();
      const smtp = await smtpServer({
        answer: async () => {
          stop.abort(new InterruptedError('SIGTERM'));
          await new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS));
          return undefined;
        },
      });
      const receiver = await stoppingReceiver();
      const chain = ['digest', '--db', archive.db, '--since', 'last', '--sources', 'us_cpsc'];
      const first = await runMainAgainst(sandbox, [...chain, ...mailFlags(smtp.url), '--webhook', receiver.hook], {
        signal: stop.signal,
      });
      expect(first.code).toBe(130);
      expect(smtp.received).toHaveLength(1);
      expect(receiver.bodies).toEqual([]);
      expect(first.stderr).toContain(
        'stopping once the digest e-mail to team@example.test under way ends (each of its steps within',
      );

      const next = await runMainAgainst(sandbox, [...chain, '--webhook', receiver.hook]);
      await receiver.close();
      expect(next.code).toBe(0);
      expect(receiver.bodies).toHaveLength(1);
      // Nothing recorded before: the next digest is the chain's first again, over the default 24 hours.
      expect(next.stderr).toContain('no earlier digest of this selection recorded where it ended');
    },
  );

  it.skipIf(!available)(
    'a fixed period: the post ends, is not tried again, and the run ends with exit 130',
    async () => {
      const stop = new AbortController();
      const receiver = await stoppingReceiver(stop);
      const r = await runMainAgainst(sandbox, ['digest', '--db', archive.db, '--webhook', receiver.hook], {
        signal: stop.signal,
      });
      await receiver.close();
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(receiver.bodies).toHaveLength(1);
      expect(r.stderr).toContain('stopping once the digest post to');
    },
  );
});
