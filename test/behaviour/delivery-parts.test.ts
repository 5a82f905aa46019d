// --email's batch sent in parts (the server refused the whole as too large), in process against a real SMTP server on
// loopback. sync's outbox keeps its claim between parts: the pass's time budget is checked and the lease renewed
// before each part, so a part never goes out after the time is up, nor after another host could have taken its rows.
// A split batch is retried on what a retry may mend, never on a record refused for good, whichever part failed first.
// An interruption between parts leaves what the server took done and the rest pending (sync and feed --state).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, type MainResult, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { mailFlags, type ReceivedMail, smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const TOO_BIG = '552 5.3.4 Message size exceeds fixed limit';
const TRY_LATER = '451 4.3.0 Try again later';
/** feed's and sync's budget for one pass of deliveries (docs/cron.md). */
const BUDGET_MS = 120_000;

type Message = ReceivedMail;

/** The shared SMTP server, replying to each message as `answer` says; `accepted()`: the ids of the messages it took. */
async function smtpSink(answer: (mail: Message, n: number) => Promise<string | undefined> | string | undefined) {
  const smtp = await smtpServer({ answer });
  return { ...smtp, accepted: () => smtp.received.flatMap((m) => m.ids) };
}

/** Refuses as too large any message holding more than half of what the first (the whole batch) held. */
function halves() {
  let whole = 0;
  return (mail: Message) => {
    whole ||= mail.ids.length;
    return mail.ids.length > Math.ceil(whole / 2) ? TOO_BIG : undefined;
  };
}

/** The archive's outbox (SQLite), oldest first, read apart from the CLI. */
function outbox(db: string) {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare('SELECT recall_id, state, last_error FROM outbox ORDER BY id').all() as {
      recall_id: number;
      state: string;
      last_error: string | null;
    }[];
  } finally {
    conn.close();
  }
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));
const sorted = (ids: Iterable<unknown>) => [...ids].map(String).sort();
/** The ids a feed run wrote, in its order: the order of its delivery queue. */
const writtenTo = (out: string) =>
  readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => String(JSON.parse(l).id));
const idsOf = (rows: { recall_id: number }[]) => rows.map((r) => String(r.recall_id));

describe('sync --email in parts: the claim is kept between parts', () => {
  it('the time budget spent during the first part: the second is not sent, and its rows wait for their lease', async () => {
    sandbox = await sandboxFor({ seed: 71, recordCount: 20 });
    const clock = fakeClock();
    const half = halves();
    const smtp = await smtpSink((mail) => {
      const reply = half(mail);
      if (reply === undefined) clock.advance(BUDGET_MS + 1000);
      return reply;
    });
    const db = path.join(tempDir(), 'archive.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, ...mailFlags(smtp.url)], { clock });
    expect(r.code).toBe(0);
    const rows = outbox(db);
    expect(rows).toHaveLength(20);
    const [first, second] = [rows.slice(0, 10), rows.slice(10)];
    expect(smtp.log.map((m) => [m.ids.length, m.reply])).toEqual([
      [20, TOO_BIG],
      [10, undefined],
    ]);
    expect(sorted(smtp.accepted())).toEqual(sorted(idsOf(first)));
    expect(first.every((row) => row.state === 'done')).toBe(true);
    // Not tried, so not failed: no error noted, no retry counted; the next sync (or another host) mails them.
    expect(second.map((row) => [row.state, row.last_error])).toEqual(Array(10).fill(['pending', null]));
    expect(warnings(r.stderr)).toEqual([
      "warning: deliveries used the 120 s a run allows them: stopped delivering; 10 deliveries stay pending in the archive's outbox; the next sync retries them",
    ]);
  });

  it('two live hosts, each part taking most of a lease: the lease is renewed before each part, so nothing goes twice', async () => {
    sandbox = await sandboxFor({ seed: 72, recordCount: 20 });
    const live = sandbox;
    const clock = fakeClock();
    /** A lease of 15 s, each message taking 10 s: without a renewal the claim lapses during the first part. */
    const env = { RECALL_FEED_OUTBOX_LEASE: '15' };
    const db = path.join(tempDir(), 'archive.db');
    const half = halves();
    let started = false;
    let second: MainResult | undefined;
    const args = (url: string) => ['sync', '--db', db, ...mailFlags(url)];
    const smtp = await smtpSink(async (mail) => {
      clock.advance(10_000);
      const reply = half(mail);
      // Once the first host's first part is in, 20 s after its claim: the other host syncs, in full.
      if (reply === undefined && !started) {
        started = true;
        second = await runMainAgainst(live, args(smtp.url), { env, clock });
      }
      return reply;
    });
    const first = await runMainAgainst(live, args(smtp.url), { env, clock });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(second?.stderr).toBe('');
    expect(second?.code).toBe(0);
    const rows = outbox(db);
    expect(rows).toHaveLength(20);
    // Each recall mailed once, in the first host's two halves; the other host found nothing to claim.
    expect(smtp.log.map((m) => [m.ids.length, m.reply])).toEqual([
      [20, TOO_BIG],
      [10, undefined],
      [10, undefined],
    ]);
    expect(sorted(smtp.accepted())).toEqual(sorted(idsOf(rows)));
    expect(rows.every((row) => row.state === 'done')).toBe(true);
  });
});

describe('feed --state --email: a split batch retried', () => {
  // The recall too large even alone first in the batch ([huge, a, b]) or last ([a, b, huge]): the same outcome.
  for (const [where, pick] of [
    ['first', (ids: string[]) => ids[0]!],
    ['last', (ids: string[]) => ids.at(-1)!],
  ] as const) {
    it(`the one refused for good ${where}: the others are retried without it, and go; it waits for the next run`, async () => {
      sandbox = await sandboxFor({ seed: 73, recordCount: 15 });
      const dir = tempDir();
      const state = path.join(dir, 'seen.json');
      const out = path.join(dir, 'out.jsonl');
      // Any message with the blocker is too large; any other is put off (451) until the run's first pause, a retry's.
      let paused = 0;
      const clock = fakeClock(Date.now(), () => {
        paused++;
      });
      let blocker = '';
      const smtp = await smtpSink((mail) => {
        // The output is written before any delivery: the first message sees the queue's order there.
        blocker ||= pick(writtenTo(out));
        if (mail.ids.includes(blocker)) return TOO_BIG;
        return paused === 0 ? TRY_LATER : undefined;
      });
      const r = await runMainAgainst(
        sandbox,
        ['feed', '--hours', '24', '--state', state, '-o', out, ...mailFlags(smtp.url)],
        { clock },
      );
      expect(r.code).toBe(0);
      const others = writtenTo(out).filter((id) => id !== blocker);
      expect(others.length).toBeGreaterThan(1);
      // The first attempt split down to the blocker alone; the one retry held the others only, and they went.
      const firstAttempt = smtp.log.filter((m) => m.reply !== undefined);
      expect(smtp.log.slice(firstAttempt.length).map((m) => [sorted(m.ids), m.reply])).toEqual([
        [sorted(others), undefined],
      ]);
      expect(firstAttempt.filter((m) => m.ids.includes(blocker)).at(-1)?.ids).toEqual([blocker]);
      expect(firstAttempt.every((m) => m.reply === (m.ids.includes(blocker) ? TOO_BIG : TRY_LATER))).toBe(true);
      const pending = JSON.parse(readFileSync(state, 'utf8')).pending as { id: string; lastError: string }[];
      expect(pending.map((p) => [p.id, p.lastError])).toEqual([
        [blocker, `email: smtp://127.0.0.1:${smtp.port} refused the message: Message failed: ${TOO_BIG}`],
      ]);
      // One line per way the first attempt failed, each for its own recalls.
      expect(warnings(r.stderr).sort()).toEqual(
        [
          `warning: email failed for recall ${blocker}: smtp://127.0.0.1:${smtp.port} refused the message: Message failed: ${TOO_BIG}; it stays pending`,
          `warning: email failed for ${others.length} pending items: smtp://127.0.0.1:${smtp.port} failed: Message failed: ${TRY_LATER}; they stay pending`,
        ].sort(),
      );
    });
  }
});

describe('--email in parts, interrupted between two parts', () => {
  /**
   * Accepts the first half, interrupting the run (as Ctrl-C would) as it does: the part under way ends as it would have,
   * and no part starts after it. A second half that came anyway is put off.
   */
  function interrupting(stop: AbortController) {
    const half = halves();
    let accepted = 0;
    return (mail: Message) => {
      const reply = half(mail);
      if (reply !== undefined) return reply;
      if (accepted++ > 0) return TRY_LATER;
      stop.abort(new InterruptedError('SIGINT'));
      return undefined;
    };
  }

  it('sync: the first half is done, the rest pending and not failed', async () => {
    sandbox = await sandboxFor({ seed: 74, recordCount: 20 });
    const stop = new AbortController();
    const smtp = await smtpSink(interrupting(stop));
    const db = path.join(tempDir(), 'archive.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, ...mailFlags(smtp.url)], { signal: stop.signal });
    expect(r.code).toBe(130);
    const rows = outbox(db);
    expect(rows).toHaveLength(20);
    expect(smtp.log.map((m) => m.ids.length)).toEqual([20, 10]);
    expect(sorted(smtp.accepted())).toEqual(sorted(idsOf(rows.slice(0, 10))));
    expect(rows.slice(0, 10).every((row) => row.state === 'done')).toBe(true);
    expect(rows.slice(10).map((row) => [row.state, row.last_error])).toEqual(Array(10).fill(['pending', null]));
    expect(warnings(r.stderr)).toEqual([]);
  });

  it('feed --state: the first half leaves the queue, saved; the rest stays pending as it was', async () => {
    sandbox = await sandboxFor({ seed: 75, recordCount: 20 });
    const stop = new AbortController();
    const smtp = await smtpSink(interrupting(stop));
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'out.jsonl');
    const r = await runMainAgainst(
      sandbox,
      ['feed', '--hours', '24', '--state', state, '-o', out, ...mailFlags(smtp.url)],
      {
        signal: stop.signal,
      },
    );
    // Interrupted: exit 130, as the sync above; nothing on stdout (the records went to -o).
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    const written = writtenTo(out);
    const n = written.length;
    expect(n).toBeGreaterThan(2);
    const firstHalf = written.slice(0, Math.ceil(n / 2));
    expect(smtp.log.map((m) => m.ids.length)).toEqual([n, Math.ceil(n / 2)]);
    expect(sorted(smtp.accepted())).toEqual(sorted(firstHalf));
    const saved = JSON.parse(readFileSync(state, 'utf8')) as {
      seen: Record<string, number>;
      pending: { id: string; done: string[]; attempts: number; lastError?: string }[];
    };
    expect(sorted(Object.keys(saved.seen))).toEqual(sorted(written));
    expect(saved.pending).toEqual(
      written.slice(Math.ceil(n / 2)).map((id) => expect.objectContaining({ id, done: [], attempts: 0 })),
    );
    expect(saved.pending.some((p) => p.lastError !== undefined)).toBe(false);
  });
});
