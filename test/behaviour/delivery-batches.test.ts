// --email as a batch of recalls, in process against a real SMTP server on loopback: a notice with a runaway field is
// mailed shortened with the rest; a message refused as too large goes again in parts, so one recall never holds back
// the others (sync's outbox and feed's --state queue alike); a refused message is one warning line, not one per
// recall; sync --on-update mails new versions as updated, not as new.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { mailFlags, type ReceivedMail, smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Postfix's default message_size_limit, and its refusal of a larger message. */
const POSTFIX_LIMIT = 10_240_000;
const TOO_BIG = '552 5.3.4 Message size exceeds fixed limit';

/** The sizes of the messages the server refused. */
const refusals = (smtp: { log: ReceivedMail[] }) => smtp.log.filter((m) => m.reply !== undefined).map((m) => m.bytes);

/** Rows of the archive (SQLite), read apart from the CLI. */
function query<T>(db: string, sql: string): T[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all() as T[];
  } finally {
    conn.close();
  }
}

const outbox = (db: string) =>
  query<{ recall_id: number; kind: string; state: string }>(
    db,
    'SELECT recall_id, kind, state FROM outbox ORDER BY id',
  );
/** The ids of the recalls the sync stored. */
const stored = (db: string) => query<{ id: number }>(db, 'SELECT id FROM recalls').map((r) => r.id);

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));
const sorted = (ids: Iterable<unknown>) => [...ids].map(String).sort();

describe('sync --email, a batch of up to 1,000 recalls', () => {
  it('a notice with a 6 MB title is mailed shortened, with every other recall: nothing stays pending', async () => {
    sandbox = await sandboxFor({ seed: 61, recordCount: 20 });
    const title = `Runaway ${'x'.repeat(6_000_000)}`;
    const [hostile] = sandbox.addRecords([{ alert_title: title, product_brand: 'B'.repeat(500_000) }]);
    const smtp = await smtpServer({ answer: (m) => (m.bytes > POSTFIX_LIMIT ? TOO_BIG : undefined) });
    const db = path.join(tempDir(), 'archive.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, ...mailFlags(smtp.url)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(refusals(smtp)).toEqual([]);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(sorted(mail.ids)).toEqual(sorted(stored(db)));
    expect(mail.ids).toContain(String(hostile!.id));
    // As the Teams card shows it: the title's first 299 characters and an ellipsis, the brand's first 199.
    expect(mail.text).toContain(`* ${title.slice(0, 299)}…\n`);
    expect(mail.text).toContain(`brand: ${'B'.repeat(199)}… · `);
    expect(mail.html).toContain(`${title.slice(0, 299)}…</`);
    expect(mail.bytes).toBeLessThan(100_000);
    expect(outbox(db).filter((row) => row.state !== 'done')).toEqual([]);
  });

  it('a message the server refuses as too large goes again in parts: each recall mailed once, each part within the limit', async () => {
    sandbox = await sandboxFor({ seed: 62, recordCount: 40 });
    const limit = 12_000;
    const smtp = await smtpServer({ answer: (m) => (m.bytes > limit ? TOO_BIG : undefined) });
    const db = path.join(tempDir(), 'archive.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, ...mailFlags(smtp.url)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The whole was refused first: the limit holds fewer recalls than the sync stored.
    expect(refusals(smtp)[0]).toBeGreaterThan(limit);
    expect(smtp.received.length).toBeGreaterThan(1);
    for (const mail of smtp.received) expect(mail.bytes).toBeLessThanOrEqual(limit);
    const mailed = smtp.received.flatMap((m) => m.ids);
    expect(sorted(mailed)).toEqual(sorted(stored(db)));
    expect(outbox(db).filter((row) => row.state !== 'done')).toEqual([]);
    // Each part counts what it holds.
    for (const mail of smtp.received) expect(mail.subject).toMatch(new RegExp(`: ${mail.ids.length} new\\b`));
  });

  it('one recall the server refuses even alone stays in the outbox; the others are mailed; one warning says so', async () => {
    sandbox = await sandboxFor({ seed: 63, recordCount: 25 });
    const [blocker] = sandbox.addRecords([{ alert_title: 'BLOCKER notice', risk_severity: 'serious' }]);
    const smtp = await smtpServer({ answer: (m) => (m.text.includes('BLOCKER') ? TOO_BIG : undefined) });
    const db = path.join(tempDir(), 'archive.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, ...mailFlags(smtp.url)]);
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([
      `warning: email failed for 1 recall: smtp://127.0.0.1:${smtp.port} refused the message: Message failed: ${TOO_BIG}; it stays in the archive's outbox and is retried`,
    ]);
    const others = stored(db).filter((id) => id !== blocker!.id);
    expect(others.length).toBeGreaterThan(1);
    expect(sorted(smtp.received.flatMap((m) => m.ids))).toEqual(sorted(others));
    expect(outbox(db).filter((row) => row.state !== 'done')).toEqual([
      { recall_id: blocker!.id, kind: 'new', state: 'pending' },
    ]);
  });

  it('a refused message (550) is one warning line for all its recalls, not one per recall', async () => {
    sandbox = await sandboxFor({ seed: 64, recordCount: 40 });
    const smtp = await smtpServer({ answer: () => '550 rejected' });
    const db = path.join(tempDir(), 'archive.db');
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, ...mailFlags(smtp.url)]);
    expect(r.code).toBe(0);
    const n = stored(db).length;
    expect(n).toBeGreaterThan(1);
    expect(warnings(r.stderr)).toEqual([
      `warning: email failed for ${n} recalls: smtp://127.0.0.1:${smtp.port} refused the message: Message failed: 550 rejected; they stay in the archive's outbox and are retried`,
    ]);
    expect(refusals(smtp)).toHaveLength(1);
    const rows = outbox(db);
    expect(rows).toHaveLength(n);
    expect(rows.every((row) => row.state === 'pending')).toBe(true);
  });
});

describe('sync --on-update --email', () => {
  it('says new versions are updated, not new: in the subject, the introduction and on each of them', async () => {
    sandbox = await sandboxFor({ seed: 65, recordCount: 20 });
    const db = path.join(tempDir(), 'archive.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    const updated = sandbox.updateRecords(2);
    const [added] = sandbox.addRecords([{ alert_title: 'A brand new notice', risk_severity: 'low' }]);
    const smtp = await smtpServer();
    const r = await runMainAgainst(sandbox, ['sync', '--db', db, '--on-update', ...mailFlags(smtp.url)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(sorted(mail.ids)).toEqual(sorted([...updated, added!].map((x) => x.id)));
    // The worst severity among the three, counted apart from the code.
    const order = ['serious', 'high', 'medium', 'low'];
    const severities = [...updated, added!].map((x) => String(x.risk_severity ?? '').toLowerCase());
    const worst = order.find((s) => severities.includes(s))!;
    const n = severities.filter((s) => s === worst).length;
    expect(mail.subject).toMatch(new RegExp(`^Recalls \\d{1,2} \\w{3}: 1 new, 2 updated \\(${n} ${worst}\\)$`));
    expect(mail.text).toContain('New and updated recalls found by recall-feed');
    expect(mail.text).not.toContain('\nNew recalls found');
    for (const u of updated) expect(mail.text).toContain(`* Updated: ${u.alert_title}\n`);
    expect(mail.text).toContain('* A brand new notice\n');
    expect(mail.html.match(/<em>Updated:<\/em>/g)).toHaveLength(2);
  });
});

describe('feed --state --email', () => {
  it('one recall the server refuses even alone stays pending; the others are mailed and leave the queue', async () => {
    sandbox = await sandboxFor({ seed: 66, recordCount: 15 });
    const [blocker] = sandbox.addRecords([{ alert_title: 'BLOCKER notice', risk_severity: 'serious' }]);
    const smtp = await smtpServer({ answer: (m) => (m.text.includes('BLOCKER') ? TOO_BIG : undefined) });
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'out.jsonl');
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--hours',
      '24',
      '--state',
      state,
      '-o',
      out,
      ...mailFlags(smtp.url),
    ]);
    expect(r.code).toBe(0);
    const written = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => String(JSON.parse(l).id));
    expect(written).toContain(String(blocker!.id));
    expect(sorted(smtp.received.flatMap((m) => m.ids))).toEqual(
      sorted(written.filter((id) => id !== String(blocker!.id))),
    );
    expect(existsSync(state)).toBe(true);
    const pending = (JSON.parse(readFileSync(state, 'utf8')).pending ?? []) as { id: string }[];
    expect(pending.map((p) => p.id)).toEqual([String(blocker!.id)]);
    // A refusal is not retried within the run: one warning, for the one recall.
    expect(warnings(r.stderr)).toEqual([
      `warning: email failed for recall ${blocker!.id}: smtp://127.0.0.1:${smtp.port} refused the message: Message failed: ${TOO_BIG}; it stays pending`,
    ]);
  });
});
