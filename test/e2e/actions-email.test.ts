// --email on feed --watch, end to end: one message per poll holding its new recalls, each recall in exactly one, one SIGINT
// ends it, and a SIGKILL mid-delivery repeats one message and loses none (feed --state and match --watch: test/behaviour/).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runAgainst, sandboxFor, tempDir } from '../helpers/cli.js';
import { type ReceivedMail, smtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function mailFlags(url: string, to = 'team@example.test') {
  return ['--email', to, '--email-from', 'recalls@example.test', '--smtp-url', url];
}

function watch(s: Sandbox, args: string[]) {
  return runAgainst(s, ['feed', '--watch', '--interval', '1', '--skip-existing', '-f', 'jsonl', ...args], {
    timeout: 120_000,
  });
}

const pendingIn = (state: string) =>
  existsSync(state) ? ((JSON.parse(readFileSync(state, 'utf8')).pending ?? []) as { id: string }[]) : [];

/** Every id mailed, with how many messages held it. */
function mailedCounts(received: readonly ReceivedMail[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of received) for (const id of m.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

describe('--email', () => {
  it('feed --watch: each poll with new recalls sends one message holding them all; each recall in exactly one; one SIGINT ends it', async () => {
    sandbox = await sandboxFor({ seed: 41, recordCount: 50 });
    const smtp = await smtpServer();
    const state = path.join(tempDir(), 'seen.json');
    const child = watch(sandbox, ['--state', state, ...mailFlags(smtp.url, 'a@example.test,b@example.test')]);
    await until('the first poll', () => sandbox!.requests().length >= 1);
    const first = sandbox.addRecords([
      { alert_title: 'Kettle', risk_severity: 'high' },
      { alert_title: 'Heater', risk_severity: 'serious' },
      { alert_title: '<b>Hostile</b> & "quoted"', risk_severity: 'low' },
    ]);
    await until('the first message', () => smtp.received.length >= 1, 30_000);
    const second = sandbox.addRecords([{ alert_title: 'Stroller', risk_severity: 'medium' }, { alert_title: 'Lamp' }]);
    await until('the second message', () => smtp.received.length >= 2, 30_000);
    await until('nothing pending', () => pendingIn(state).length === 0);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const [m1, m2] = smtp.received as [ReceivedMail, ReceivedMail];
    expect(smtp.received).toHaveLength(2);
    expect(m1.ids.sort()).toEqual(first.map((x) => String(x.id)).sort());
    expect(m2.ids.sort()).toEqual(second.map((x) => String(x.id)).sort());
    const day = `${new Date().getUTCDate()} ${new Date().toUTCString().slice(8, 11)}`;
    expect(m1.subject).toBe(`Recalls ${day}: 3 new (1 serious)`);
    expect(m1.rcpt).toEqual(['a@example.test', 'b@example.test']);
    // Worst first in the text; the hostile title is text in the HTML part, never markup.
    expect(m1.text.indexOf('Heater')).toBeLessThan(m1.text.indexOf('Kettle'));
    expect(m1.html).toContain('&lt;b&gt;Hostile&lt;/b&gt; &amp; &quot;quoted&quot;');
    expect(m1.html).not.toContain('<b>Hostile</b>');
    expect([...mailedCounts(smtp.received).values()].every((c) => c === 1)).toBe(true);
  }, 90_000);

  it('a watch SIGKILLed after the server took the message but before the state was saved repeats that one message, and loses none', async () => {
    sandbox = await sandboxFor({ seed: 42, recordCount: 50 });
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    let child: ReturnType<typeof watch> | undefined;
    // The server reads the whole message, then kills the watch before answering: the message is
    // delivered, and the watch can never have recorded it.
    const smtp = await smtpServer({
      beforeAnswer: (_mail, n) => {
        if (n === 1) child?.kill('SIGKILL');
      },
    });
    child = watch(sandbox, ['--state', state, ...mailFlags(smtp.url)]);
    await until('the first poll', () => sandbox!.requests().length >= 1);
    const added = sandbox.addRecords([{ alert_title: 'one' }, { alert_title: 'two' }, { alert_title: 'three' }]);
    const ids = added.map((x) => String(x.id)).sort();
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    expect(
      pendingIn(state)
        .map((p) => p.id)
        .sort(),
    ).toEqual(ids);
    // Restarted on the same state: the pending message goes again; then new recalls get a message of their own.
    child = watch(sandbox, ['--state', state, ...mailFlags(smtp.url)]);
    await until('the repeated message', () => smtp.received.length >= 2, 30_000);
    const later = sandbox.addRecords([{ alert_title: 'four' }]);
    await until('the next message', () => smtp.received.length >= 3, 30_000);
    await until('nothing pending', () => pendingIn(state).length === 0);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    const [m1, m2, m3] = smtp.received as [ReceivedMail, ReceivedMail, ReceivedMail];
    expect(smtp.received).toHaveLength(3);
    expect(m1.ids.sort()).toEqual(ids);
    expect(m2.ids.sort()).toEqual(ids);
    expect(m3.ids).toEqual([String(later[0]!.id)]);
  }, 90_000);
});
