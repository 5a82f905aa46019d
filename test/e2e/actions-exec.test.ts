// --exec end to end: nothing repeated after a real SIGKILL (the rest of --exec runs in process: test/behaviour/actions-exec.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runAgainst, sandboxFor } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';
import { execLogSetup } from '../helpers/exec-log.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function watch(s: Sandbox, args: string[], env: Record<string, string> = {}) {
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
    sandbox = await sandboxFor({ seed: 9, recordCount: 100 });
    const t = execLogSetup();
    const env = { BLOCK: 'blocked' };
    const w = watch(sandbox, ['--state', t.state, '--exec', t.exec], env);
    await until('the first poll', () => sandbox!.requests().length >= 1);
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
    const w2 = watch(sandbox, ['--state', t.state, '--exec', t.exec], env);
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
