// --exec end to end: once per new recall, never through a shell, retried until it succeeds, nothing repeated after a SIGKILL.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runAgainst, sandboxFor, tempDir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/**
 * The command: appends {"id", "title", "stdin_id"} to a log. For the title FAIL_ONCE it fails the first
 * time; for the title BLOCK it fails until a release file exists.
 */
const SCRIPT = `
const fs = require('fs');
const [log, id, title] = process.argv.slice(2);
const mark = log + '.failed-' + id;
if (title === process.env.FAIL_ONCE && !fs.existsSync(mark)) { fs.writeFileSync(mark, ''); console.error('failing once for ' + id); process.exit(1); }
if (title === process.env.BLOCK && !fs.existsSync(log + '.release')) { process.exit(3); }
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  fs.appendFileSync(log, JSON.stringify({ id, title, stdin_id: String(JSON.parse(input).id) }) + '\\n');
  console.log('logged ' + id);
});
`;

function setup() {
  const dir = tempDir();
  const script = path.join(dir, 'act.cjs');
  writeFileSync(script, SCRIPT);
  const log = path.join(dir, 'log.jsonl');
  const exec = `'${process.execPath}' '${script}' '${log}' {id} {alert_title}`;
  // Only whole lines: the command may be between creating the file and writing its line.
  const logged = () => {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id: string; title: string; stdin_id: string });
  };
  return { dir, log, exec, logged, state: path.join(dir, 'state.json') };
}

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

const HOSTILE = ['$(touch pwned1)', '`touch pwned2`', 'x; touch pwned3', 'y && touch pwned4 | cat > pwned5'];

describe('--exec', () => {
  it('runs once per new recall, hostile titles as plain arguments; a failure is retried while the others go through', async () => {
    sandbox = await sandboxFor({ seed: 8, recordCount: 100 });
    const t = setup();
    // The second record's command fails once: it must still come, once.
    const w = watch(sandbox, ['--state', t.state, '--exec', t.exec], { FAIL_ONCE: HOSTILE[1] as string });
    await until('the first poll', () => sandbox!.requests().length >= 1);
    const ids = sandbox.addRecords(HOSTILE.map((alert_title) => ({ alert_title }))).map((r) => String(r.id));
    await until('every new recall acted on', () => ids.every((id) => t.logged().some((l) => l.id === id)), 30_000);
    // The command logs before this process records its success: stop once the state owes nothing.
    await until('no delivery pending in the state', () => {
      const saved = existsSync(t.state) ? JSON.parse(readFileSync(t.state, 'utf8')) : undefined;
      return saved !== undefined && ids.every((id) => id in saved.seen) && saved.pending === undefined;
    });
    w.child.kill('SIGINT');
    const r = await w.child;
    expect(r.exitCode).toBe(130);
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
  }, 60_000);

  it('after a SIGKILL, a restart delivers what was pending and repeats nothing delivered', async () => {
    sandbox = await sandboxFor({ seed: 9, recordCount: 100 });
    const t = setup();
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

  it('is refused without --watch or --state, and a bad command is refused, before any request', async () => {
    sandbox = await sandboxFor({ seed: 9, recordCount: 10 });
    const alone = await runAgainst(sandbox, ['feed', '--exec', 'echo {id}']);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('--exec acts on new recalls: it works with --watch or --state');
    const quote = await runAgainst(sandbox, ['feed', '--watch', '--exec', "echo 'open"]);
    expect(quote.exitCode).toBe(2);
    expect(quote.stderr).toContain('unterminated single quote');
    expect(sandbox.requests()).toEqual([]);
  });
});
