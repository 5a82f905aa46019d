// Signals to real processes: SIGTERM mid-export keeps the partial file and a resume command; `recall-feed sandbox` prints its
// URL first and stops cleanly on SIGTERM or SIGINT; after a SIGKILL of `feed --watch --exec`, a restart delivers what was
// pending and repeats nothing; a `feed --watch --email` SIGKILLed after the server took a message repeats that one message
// and loses none. The rest runs in process (test/behaviour/resilience.test.ts, actions-exec.test.ts, actions-email.test.ts).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, FIXED_START, jsonLines, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { execLogSetup } from '../helpers/exec-log.js';
import { printedCommand } from '../helpers/shell-words.js';
import { mailFlags, type ReceivedMail, smtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

describe('interrupts', () => {
  it('SIGTERM mid-export keeps the partial file, prints --resume and exits 130; resuming completes it', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      const dir = tempDir();
      const target = path.join(dir, 'big.csv');
      sandbox.setFaults({ slow: 1, slowMs: 300 });
      const child = runAgainst(sandbox, ['feed', '--page-size', '50', '-o', target]);
      await until('the third page request', () => sandbox.requests().length >= 3);
      child.kill('SIGTERM');
      const first = await child;
      expect(first.exitCode).toBe(130);
      expect(first.stderr).toMatch(/^error: interrupted\n/);
      expect(existsSync(target)).toBe(false);
      expect(existsSync(`${target}.partial`)).toBe(true);
      sandbox.setFaults({});
      const second = await runCli(printedCommand(first.stderr), { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
      expect(second.exitCode).toBe(0);
      const whole = await runAgainst(sandbox, ['feed', '-f', 'csv', '--page-size', '50']);
      expect(readFileSync(target, 'utf8')).toBe(whole.stdout);
      expect(readdirSync(dir)).toEqual(['big.csv']);
    });
  });
});

async function firstLine(child: ReturnType<typeof runCli>): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once('exit', () => reject(new Error(`exited before printing a line: ${buf}`)));
  });
}

describe('recall-feed sandbox', () => {
  it('--port 0 prints the URL first, serves the feed, and exits 0 on SIGTERM', async () => {
    const child = runCli(['sandbox', '--port', '0', '--records', '50']);
    const url = await firstLine(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await runCli(['--base-url', url, 'feed'], { env: { RECALL_FEED_API_KEY: ALL_KEY } });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout).length).toBeGreaterThan(40);
    child.kill('SIGTERM');
    const done = await child;
    expect(done.exitCode).toBe(0);
  });

  it('--json prints one line with the URL and the keys, and SIGINT stops it', async () => {
    const child = runCli(['sandbox', '--port', '0', '--json']);
    const line = JSON.parse(await firstLine(child)) as { url: string; keys: { key: string; sources: string[] }[] };
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line.keys).toEqual([
      { key: ALL_KEY, sources: ['us_cpsc', 'safety_gate', 'uk_opss', 'rappel_conso', 'rappel_conso_food'] },
      { key: expect.stringMatching(/^dr_test_/), sources: ['us_cpsc', 'uk_opss'] },
    ]);
    const health = await runCli(['--base-url', line.url, 'health']);
    expect(health.exitCode).toBe(0);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });
});

function watchExec(s: Sandbox, args: string[], env: Record<string, string> = {}) {
  const child = runAgainst(s, ['feed', '--watch', '--interval', '1', '--skip-existing', '-f', 'jsonl', ...args], {
    env,
    timeout: 120_000,
  });
  const err = { text: '' };
  child.stderr!.on('data', (d: Buffer) => {
    err.text += d.toString();
  });
  return { child, err };
}

describe('--exec', () => {
  it('after a SIGKILL, a restart delivers what was pending and repeats nothing delivered', async () => {
    const sandbox = await sandboxFor({ seed: 9, recordCount: 100 });
    const t = execLogSetup();
    const env = { BLOCK: 'blocked' };
    const w = watchExec(sandbox, ['--state', t.state, '--exec', t.exec], env);
    await until('the first poll', () => sandbox.requests().length >= 1);
    const added = sandbox.addRecords([{ alert_title: 'first' }, { alert_title: 'blocked' }, { alert_title: 'third' }]);
    const ids = added.map((r) => String(r.id));
    await until('the two others acted on', () => t.logged().length === 2, 30_000);
    await until('the blocked one pending in the state', () => {
      const pending = existsSync(t.state) ? (JSON.parse(readFileSync(t.state, 'utf8')).pending ?? []) : [];
      return pending.length === 1 && pending[0].id === ids[1];
    });
    w.child.kill('SIGKILL');
    await w.child;
    writeFileSync(`${t.log}.release`, '');
    // The restart no longer sees it as new (it is remembered), yet delivers it from the state.
    const w2 = watchExec(sandbox, ['--state', t.state, '--exec', t.exec], env);
    await until('the pending recall acted on', () => t.logged().length === 3, 30_000);
    w2.child.kill('SIGINT');
    await w2.child;
    expect(
      t
        .logged()
        .map((l) => l.id)
        .sort(),
    ).toEqual([...ids].sort());
  }, 60_000);
});

function watchEmail(s: Sandbox, args: string[]) {
  return runAgainst(s, ['feed', '--watch', '--interval', '1', '--skip-existing', '-f', 'jsonl', ...args], {
    timeout: 120_000,
  });
}

const pendingIn = (state: string) =>
  existsSync(state) ? ((JSON.parse(readFileSync(state, 'utf8')).pending ?? []) as { id: string }[]) : [];

describe('--email', () => {
  it('a watch SIGKILLed after the server took the message but before the state was saved repeats that one message, and loses none', async () => {
    const sandbox = await sandboxFor({ seed: 42, recordCount: 50 });
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    let child: ReturnType<typeof watchEmail> | undefined;
    // The server reads the whole message, then kills the watch before answering: the message is
    // delivered, and the watch can never have recorded it.
    const smtp = await smtpServer({
      beforeAnswer: (_mail, n) => {
        if (n === 1) child?.kill('SIGKILL');
      },
    });
    child = watchEmail(sandbox, ['--state', state, ...mailFlags(smtp.url)]);
    await until('the first poll', () => sandbox.requests().length >= 1);
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
    child = watchEmail(sandbox, ['--state', state, ...mailFlags(smtp.url)]);
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
