// A run stopped in order (Ctrl-C, SIGTERM: the run's abort signal) while a delivery is under way lets that attempt
// finish and records it, and starts no other: the recall the receiver got is not pending afterwards, so a restart never
// posts it again (docs/cron.md, "The guarantee"). sync settles the row `done`, and releases the rows it claimed and did
// not try (no lease left), so that the next sync takes them at once. The receiver stops the run as the request
// arrives, then answers a moment later; the second Ctrl-C is test/integration/delivery-second-stop.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { bodyServer } from '../helpers/handler-server.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { mailFlags, smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** How long the receiver takes to answer the request that stopped the run: the abort comes first. */
const ANSWER_AFTER_MS = 150;

/**
 * A webhook receiver keeping the id of each post (in order). The first post it gets stops the run (`stop`, as SIGTERM
 * would) as it arrives, and is answered 200 a moment later; the others at once.
 */
async function stoppingReceiver(stop: AbortController, status = 200) {
  const posted: string[] = [];
  const server = await bodyServer((body, _req, res) => {
    posted.push(String((JSON.parse(body) as { id: unknown }).id));
    if (posted.length > 1) return void res.end('ok');
    stop.abort(new InterruptedError('SIGTERM'));
    setTimeout(() => {
      res.statusCode = status;
      res.end('ok');
    }, ANSWER_AFTER_MS);
  });
  return { url: `${server.url}/hooks/T0/B0/secret`, posted };
}

/** The ids of the records a feed run wrote as JSON lines, in order: the order of its delivery queue. */
const idsOfLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => String((JSON.parse(l) as { id: unknown }).id));

/** What the --state file still owes. */
const pendingIn = (state: string) =>
  (JSON.parse(readFileSync(state, 'utf8')) as { pending?: { id: string; done: string[]; attempts: number }[] })
    .pending ?? [];

describe('feed --state --webhook stopped while a post is under way', () => {
  it.each([
    ['feed --state', false],
    ['feed --watch --state', true],
  ])(
    '%s: the post finishes and is saved as delivered; no other starts; the next run never posts it again',
    async (_, watch) => {
      sandbox = await sandboxFor({ seed: 811, recordCount: 4 });
      const dir = tempDir();
      const state = path.join(dir, 'seen.json');
      const out = path.join(dir, 'out.jsonl');
      const stop = new AbortController();
      const hook = await stoppingReceiver(stop);
      // A watch writes to stdout; a cron run to its file.
      const where = watch ? ['--watch', '--interval', '600', '-f', 'jsonl'] : ['-o', out];
      const args = ['feed', '--hours', '24', ...where, '--state', state, '--webhook', hook.url];
      const first = await runMainAgainst(sandbox, args, { signal: stop.signal });
      expect(first.code).toBe(130);
      const written = watch ? idsOfLines(first.stdout) : idsOfLines(readFileSync(out, 'utf8'));
      expect(written.length).toBeGreaterThan(1);
      // One post, the first recall's, answered after the stop: nothing else was started.
      expect(hook.posted).toEqual([written[0]]);
      expect(pendingIn(state)).toEqual(
        written.slice(1).map((id) => expect.objectContaining({ id, done: [], attempts: 0 })),
      );
      expect(first.stderr).not.toContain('warning:');
      // The run said why it went on after the stop.
      expect(first.stderr).toContain('stopping once the webhook delivery under way ends');

      const second = await runMainAgainst(sandbox, ['feed', '--hours', '24', '--state', state, '--webhook', hook.url]);
      expect(second.code).toBe(0);
      // The rest, once each; the first never again.
      expect(hook.posted).toEqual(written);
      expect(pendingIn(state)).toEqual([]);
    },
  );

  it('--email: the message under way is accepted and saved; its recalls are not mailed again', async () => {
    sandbox = await sandboxFor({ seed: 812, recordCount: 3 });
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'out.jsonl');
    const stop = new AbortController();
    // Stops the run as the first message arrives, and accepts it a moment later.
    const smtp = await smtpServer({
      answer: async (_mail, n) => {
        if (n > 1) return undefined;
        stop.abort(new InterruptedError('SIGTERM'));
        await new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS));
        return undefined;
      },
    });
    const args = ['feed', '--hours', '24', '--state', state, '-o', out, ...mailFlags(smtp.url)];
    const first = await runMainAgainst(sandbox, args, { signal: stop.signal });
    expect(first.code).toBe(130);
    const written = idsOfLines(readFileSync(out, 'utf8'));
    expect(smtp.received.map((m) => [...m.ids].sort())).toEqual([[...written].sort()]);
    expect(pendingIn(state)).toEqual([]);
    expect(first.stderr).toContain('stopping once the email delivery under way ends');
    const second = await runMainAgainst(sandbox, ['feed', '--hours', '24', '--state', state, ...mailFlags(smtp.url)]);
    expect(second.code).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });
});

describe.each(ENGINES)('sync --webhook ($engine) stopped while a post is under way', ({ engine, available }) => {
  it.skipIf(!available)(
    'the row posted is done; the rows claimed and not tried are released (pending, no lease, no attempt counted)',
    async () => {
      sandbox = await sandboxFor({ seed: 813, recordCount: 5 });
      const archive = await testArchive(engine);
      const stop = new AbortController();
      const hook = await stoppingReceiver(stop);
      const args = ['sync', '--db', archive.db, '--webhook', hook.url];
      const first = await runMainAgainst(sandbox, args, { signal: stop.signal });
      expect(first.code).toBe(130);
      const rows = await archive.rows<{ recall_id: unknown; state: string; lease_until: unknown; attempts: unknown }>(
        'SELECT recall_id, state, lease_until, attempts FROM outbox ORDER BY id',
      );
      const ids = rows.map((r) => String(r.recall_id));
      expect(ids.length).toBeGreaterThan(1);
      // One post, the oldest row's: done. The others: owed as if never claimed.
      expect(hook.posted).toEqual([ids[0]]);
      const shape = rows.map((r) => [r.state, r.lease_until === null ? 'no lease' : 'leased', Number(r.attempts)]);
      expect(shape).toEqual([['done', 'no lease', 1], ...ids.slice(1).map(() => ['pending', 'no lease', 0])]);
      expect(first.stderr).not.toContain('warning:');

      // The next sync takes them at once (no lease to wait out), in their order; the first is never posted again.
      const second = await runMainAgainst(sandbox, args);
      expect(second.code).toBe(0);
      expect(hook.posted).toEqual(ids);
      const states = await archive.rows<{ state: string }>('SELECT state FROM outbox ORDER BY id');
      expect(states.map((r) => r.state)).toEqual(ids.map(() => 'done'));
    },
    60_000,
  );

  it.skipIf(!available)(
    'a post that fails as the run stops is recorded as any failure: counted, its error kept, retried later',
    async () => {
      sandbox = await sandboxFor({ seed: 814, recordCount: 3 });
      const archive = await testArchive(engine);
      const stop = new AbortController();
      const hook = await stoppingReceiver(stop, 503);
      const first = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url], {
        signal: stop.signal,
      });
      expect(first.code).toBe(130);
      const rows = await archive.rows<{ state: string; attempts: unknown; last_error: string | null }>(
        'SELECT state, attempts, last_error FROM outbox ORDER BY id',
      );
      expect(rows.length).toBeGreaterThan(1);
      expect(hook.posted).toHaveLength(1);
      const shape = rows.map((r) => [r.state, Number(r.attempts), r.last_error === null ? 'no error' : 'error']);
      expect(shape).toEqual([['pending', 1, 'error'], ...rows.slice(1).map(() => ['pending', 0, 'no error'])]);
      expect(rows[0]?.last_error).toContain('503');
      expect(first.stderr).toContain('warning: webhook failed');
    },
    60_000,
  );
});
