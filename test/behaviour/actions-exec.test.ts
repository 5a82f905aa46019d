// --exec in process (its commands real processes): once per new recall, never through a shell, retried until it
// succeeds; refusals before any request (after a real SIGKILL: test/e2e/signals.test.ts).
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { execLogSetup } from '../helpers/exec-log.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const HOSTILE = ['$(touch pwned1)', '`touch pwned2`', 'x; touch pwned3', 'y && touch pwned4 | cat > pwned5'];

describe('--exec', () => {
  it('runs once per new recall, hostile titles as plain arguments; a failure is retried while the others go through', async () => {
    sandbox = await sandboxFor({ seed: 8, recordCount: 100 });
    const t = execLogSetup();
    // The injected clock is the interval and the retry pauses: the hostile titles arrive after the first poll; the
    // watch stops once every one was acted on and the state owes nothing (the command logs before the state saves).
    const live = sandbox;
    let ids: string[] = [];
    let sleeps = 0;
    const stop = new AbortController();
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps > 200) throw new Error('not every new recall was acted on');
      if (ids.length === 0) {
        ids = live.addRecords(HOSTILE.map((alert_title) => ({ alert_title }))).map((r) => String(r.id));
        return;
      }
      if (!ids.every((id) => t.logged().some((l) => l.id === id))) return;
      const saved = existsSync(t.state) ? JSON.parse(readFileSync(t.state, 'utf8')) : undefined;
      if (saved !== undefined && ids.every((id) => id in saved.seen) && saved.pending === undefined)
        stop.abort(new InterruptedError('SIGINT'));
    });
    // The second record's command fails once: it must still come, once.
    const r = await runMainAgainst(
      live,
      ['feed', '--watch', '--interval', '1', '--skip-existing', '-f', 'jsonl', '--state', t.state, '--exec', t.exec],
      { clock, signal: stop.signal, env: { PATH: process.env.PATH, FAIL_ONCE: HOSTILE[1] as string } },
    );
    expect(r.code).toBe(130);
    const logged = t.logged();
    expect(logged.map((l) => l.id).sort()).toEqual([...ids].sort());
    for (const l of logged) {
      expect(l.stdin_id).toBe(l.id);
      expect(l.title).toBe(HOSTILE[ids.indexOf(l.id)]);
    }
    expect(readdirSync(t.dir).filter((f) => f.startsWith('pwned'))).toEqual([]);
    expect(readdirSync(process.cwd()).filter((f) => f.startsWith('pwned'))).toEqual([]);
    expect(r.stderr).toContain(`exec failed for recall ${ids[1]}: exit code 1; it stays pending`);
    expect(r.stderr).toContain(`exec[${ids[1]}]: failing once for ${ids[1]}`);
  });

  it('is refused without --watch or --state, and a bad command is refused, before any request', async () => {
    sandbox = await sandboxFor({ seed: 9, recordCount: 10 });
    const alone = await runMainAgainst(sandbox, ['feed', '--exec', 'echo {id}']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--exec acts on new recalls: it works with --watch or --state');
    const quote = await runMainAgainst(sandbox, ['feed', '--watch', '--exec', "echo 'open"]);
    expect(quote.code).toBe(2);
    expect(quote.stderr).toContain('unterminated single quote');
    expect(sandbox.requests()).toEqual([]);
  });

  it('a {placeholder} that is a typo of a field is exit 2 naming the field, before any request (it was filled with nothing)', async () => {
    sandbox = await sandboxFor({ seed: 9, recordCount: 10 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rf-exec-typo-'));
    deferCleanup(() => rmSync(dir, { recursive: true, force: true }));
    for (const [args, typo, field] of [
      [['feed', '--watch', '--exec', 'notify-send {alert_titel}'], 'alert_titel', 'alert_title'],
      [['sync', '--db', path.join(dir, 'a.db'), '--exec', 'echo -- {prodcut_name}'], 'prodcut_name', 'product_name'],
    ] as const) {
      const r = await runMainAgainst(sandbox, [...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(
        `error: --exec: {${typo}} is no field of a recall, so it would always be empty\nhint: did you mean {${field}}?\n`,
      );
    }
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a program that is not there, or not executable, is exit 2 before any request (it was retried for every recall)', async () => {
    sandbox = await sandboxFor({ seed: 9, recordCount: 10 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rf-exec-'));
    try {
      const script = path.join(dir, 'notify.sh');
      writeFileSync(script, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
      const state = path.join(dir, 'state.json');
      for (const [args, message, hint] of [
        [
          ['feed', '--state', state, '--exec', 'rf-no-such-command-xyz {id}'],
          '--exec: command not found: rf-no-such-command-xyz',
          'install it, or give its full path (PATH is searched)',
        ],
        [
          ['sync', '--db', path.join(dir, 'a.db'), '--exec', `${dir}/missing.sh`],
          `--exec: command not found: ${dir}/missing.sh`,
          'check the path',
        ],
        [
          ['feed', '--watch', '--exec', `${script} {id}`],
          `--exec: ${script} is not executable`,
          `make it so: chmod +x ${script}`,
        ],
        [
          ['match', '--catalog', script, '--watch', '--exec', 'rf-no-such-command-xyz'],
          '--exec: command not found: rf-no-such-command-xyz',
          'install it',
        ],
      ] as const) {
        const r = await runMainAgainst(sandbox, [...args]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toMatch(
          new RegExp(
            `^error: ${message.replace(/[.*+?()[\]\\/]/g, '\\$&')}\nhint: ${hint.replace(/[.*+?()[\]\\/]/g, '\\$&')}`,
          ),
        );
      }
      expect(sandbox.requests()).toEqual([]);
      expect(readdirSync(dir)).toEqual(['notify.sh']);
      // Found on PATH, it runs: the same plan with a program that is there passes the check.
      chmodSync(script, 0o755);
      const ok = await runMainAgainst(sandbox, ['feed', '--state', state, '--exec', `${script} {id}`, '-f', 'jsonl']);
      expect(ok.code, ok.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
