// --email in process on feed --state (cron), feed --watch and match --watch, against a real SMTP server: one message per
// run or poll holding its new recalls; a refusing server leaves them pending (a SIGKILL mid-delivery:
// test/e2e/signals.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { mailFlags, type ReceivedMail, smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const pendingIn = (state: string) =>
  existsSync(state) ? ((JSON.parse(readFileSync(state, 'utf8')).pending ?? []) as { id: string }[]) : [];

describe('--email', () => {
  it('feed --state from cron: one message per run; nothing new sends nothing; a refusing server leaves them pending with a warning', async () => {
    sandbox = await sandboxFor({ seed: 43, recordCount: 30 });
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const refusing = await smtpServer({ refuse: 'relay denied' });
    const once = (url: string) =>
      runMainAgainst(sandbox!, [
        'feed',
        '--hours',
        '24',
        '--state',
        state,
        '-o',
        path.join(dir, 'out.jsonl'),
        '--append',
        ...mailFlags(url),
      ]);
    const r1 = await once(refusing.url);
    expect(r1.code).toBe(0);
    expect(r1.stderr).toContain(`email failed for `);
    expect(r1.stderr).toContain(`smtp://127.0.0.1:${refusing.port} refused the message`);
    expect(r1.stderr).not.toContain(refusing.pass);
    const written = readFileSync(path.join(dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => String(JSON.parse(l).id));
    expect(
      pendingIn(state)
        .map((p) => p.id)
        .sort(),
    ).toEqual([...written].sort());
    const smtp = await smtpServer();
    const r2 = await once(smtp.url);
    expect(r2.code).toBe(0);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.ids.sort()).toEqual([...written].sort());
    expect(pendingIn(state)).toEqual([]);
    const r3 = await once(smtp.url);
    expect(r3.code).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it('match --watch: one message per poll with its match rows', async () => {
    sandbox = await sandboxFor({ seed: 44, recordCount: 20 });
    const live = sandbox;
    const dir = tempDir();
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(catalog, 'sku,brand,model,name\nA-1,Zorbex,ZX-77,Turbo kettle\n');
    const smtp = await smtpServer();
    // The injected clock is the interval: the recalls arrive after the first poll; the watch stops once mailed.
    let hit: { id: number } | undefined;
    let sleeps = 0;
    const stop = new AbortController();
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps > 100) throw new Error('no message came');
      if (!hit) {
        [hit] = live.addRecords([
          {
            alert_title: 'Kettle recall',
            product_brand: 'Zorbex',
            product_model_numbers: ['ZX-77'],
            risk_severity: 'serious',
          },
          { alert_title: 'Unrelated', product_brand: 'Nobody', product_model_numbers: ['Q-1'] },
        ]);
        return;
      }
      if (smtp.received.length >= 1) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(
      live,
      ['match', '--catalog', catalog, '--watch', '--interval', '1', '-f', 'jsonl', ...mailFlags(smtp.url)],
      { clock, signal: stop.signal },
    );
    expect(r.code).toBe(130);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.subject).toMatch(/^Recall matches \d{1,2} \w{3}: 1 catalogue match \(1 serious\)$/);
    expect(mail.text).toContain('match (model+brand), catalogue line 1');
    expect(mail.text).toContain('Kettle recall');
    expect(mail.text).not.toContain('Unrelated');
    expect(mail.ids).toEqual([String(hit!.id)]);
  });

  it('feed --watch: each poll with new recalls sends one message holding them all; each recall in exactly one; an interrupt ends it', async () => {
    sandbox = await sandboxFor({ seed: 41, recordCount: 50 });
    const live = sandbox;
    const smtp = await smtpServer();
    const state = path.join(tempDir(), 'seen.json');
    // The injected clock is the interval: recalls arrive after the first poll, more after the first message; the
    // watch stops (as Ctrl-C would) once both are mailed and nothing is pending.
    let first: { id: number }[] = [];
    let second: { id: number }[] = [];
    let sleeps = 0;
    const stop = new AbortController();
    const clock = fakeClock(Date.now(), () => {
      if (++sleeps > 100) throw new Error(`${smtp.received.length} messages came, not 2`);
      if (first.length === 0) {
        expect(live.requests().length).toBeGreaterThanOrEqual(1);
        first = live.addRecords([
          { alert_title: 'Kettle', risk_severity: 'high' },
          { alert_title: 'Heater', risk_severity: 'serious' },
          { alert_title: '<b>Hostile</b> & "quoted"', risk_severity: 'low' },
        ]);
      } else if (second.length === 0) {
        if (smtp.received.length >= 1)
          second = live.addRecords([{ alert_title: 'Stroller', risk_severity: 'medium' }, { alert_title: 'Lamp' }]);
      } else if (smtp.received.length >= 2 && pendingIn(state).length === 0) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(
      live,
      [
        'feed',
        '--watch',
        '--interval',
        '1',
        '--skip-existing',
        '-f',
        'jsonl',
        '--state',
        state,
        ...mailFlags(smtp.url, 'a@example.test,b@example.test'),
      ],
      { clock, signal: stop.signal },
    );
    expect(r.code).toBe(130);
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
    const counts = new Map<string, number>();
    for (const m of smtp.received) for (const id of m.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });
});
