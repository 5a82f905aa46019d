// A second Ctrl-C on a real process while the run waits for the delivery under way (the first stopped it in order and
// let the post go on) ends it at once, exit 130: the post's outcome is never known, so its recall stays pending and the
// next run posts it again (at least once, never lost). An --exec command under way (in its own process group, which a
// terminal's Ctrl-C does not reach) is let finish by the first stop, and killed with its group by the second. The first
// stop of a webhook or e-mail alone: test/behaviour/delivery-stop.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleCliScript } from '../helpers/child-module.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { bodyServer } from '../helpers/handler-server.js';
import { alive, pids } from '../helpers/processes.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

/** What bin/recall-feed.cjs does once it has the CLI: main() with the process's context (its signal handlers). */
const ENTRY = `import { main } from './src/cli/main.ts';
import { processContext } from './src/runtime/process-context.ts';
const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();`;

/** A second signal sooner than this after the first is taken for an exit hook re-raising it (process-context.ts). */
const SECOND_SIGNAL_AFTER_MS = 500;

/** The ids of the records a run wrote as JSON lines to `file`, in order: the order of its delivery queue. */
const idsIn = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => String((JSON.parse(l) as { id: unknown }).id));

describe('a Ctrl-C while a delivery is under way, on a real process', () => {
  let cli: string;
  beforeAll(async () => {
    cli = path.join(tempDir('rf-second-stop-', { scope: 'file' }), 'cli.mjs');
    await bundleCliScript(cli, ENTRY, 'second-stop-entry.ts');
  }, 120_000);

  function start(args: string[], baseUrl: string, home: string) {
    const child = execa(process.execPath, [cli, ...args], {
      cwd: home,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        TERM: 'dumb',
        RECALL_FEED_CONFIG_DIR: path.join(home, 'cfg'),
        RECALL_FEED_BASE_URL: baseUrl,
        RECALL_FEED_API_KEY: ALL_KEY,
      },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    deferCleanup(() => {
      child.kill('SIGKILL');
    });
    return child;
  }

  it('a second one ends the run at once (exit 130) and leaves the recall pending; the next run posts it', async () => {
    const sandbox = await sandboxFor({ seed: 821, recordCount: 3 });
    const home = tempDir('rf-second-stop-home-');
    const posted: string[] = [];
    let answering = false;
    // Keeps the ids posted; leaves the first run's post unanswered, answers the next run's.
    const hook = await bodyServer((body, _req, res) => {
      posted.push(String((JSON.parse(body) as { id: unknown }).id));
      if (answering) res.end('ok');
    });
    const url = `${hook.url}/hooks/T0/B0/secret`;
    // A timeout far longer than the test waits: only the second signal can end the post.
    const args = ['--timeout', '120', 'feed', '--hours', '24', '--state', 'seen.json', '-o', 'out.jsonl'];
    const child = start([...args, '--webhook', url], sandbox.url, home);
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    await until('the first post', () => posted.length === 1, 30_000);
    child.kill('SIGINT');
    const firstAt = Date.now();
    // Stopped in order, the run waits for the post under way and says so.
    await until('the run to say it waits', () => stderr.includes('stopping once the webhook delivery under way ends'));
    expect(child.exitCode).toBeNull();
    await until('the time an exit hook may re-raise a signal', () => Date.now() - firstAt > SECOND_SIGNAL_AFTER_MS);
    const secondAt = Date.now();
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, stderr).toBe(130);
    expect(Date.now() - secondAt).toBeLessThan(10_000);
    const written = idsIn(path.join(home, 'out.jsonl'));
    expect(written.length).toBeGreaterThan(1);
    expect(posted).toEqual([written[0]]);
    const state = JSON.parse(readFileSync(path.join(home, 'seen.json'), 'utf8')) as {
      pending: { id: string; done: string[] }[];
    };
    // Every recall written is still owed, the one posted too: nothing is lost.
    expect(state.pending.map((p) => [p.id, p.done])).toEqual(written.map((id) => [id, []]));

    answering = true;
    const again = await start([...args, '--webhook', url], sandbox.url, home);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(posted).toEqual([written[0], ...written]);
  }, 60_000);

  /**
   * `feed --state --exec` whose command writes its pid, waits for the file `gate`, then notes its recall in `ran`. The
   * run is stopped (SIGINT) as the first command waits; it says it waits for it.
   */
  async function stoppedDuringExec() {
    const sandbox = await sandboxFor({ seed: 822, recordCount: 3 });
    const home = tempDir('rf-second-stop-exec-');
    const [pidFile, gate, ran] = ['pids', 'gate', 'ran'].map((f) => path.join(home, f)) as [string, string, string];
    const command = `sh -c 'echo $$ >> ${pidFile}; while [ ! -e ${gate} ]; do sleep 0.05; done; echo "$1" >> ${ran}' sh {id}`;
    const child = start(
      ['feed', '--hours', '24', '--state', 'seen.json', '-o', 'out.jsonl', '--exec', command],
      sandbox.url,
      home,
    );
    // Whatever happens, no command is left behind: each leads its own process group.
    deferCleanup(() => {
      for (const pid of pids(pidFile).filter(alive)) process.kill(-pid, 'SIGKILL');
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    await until('the first command', () => pids(pidFile).length === 1, 30_000);
    child.kill('SIGINT');
    const stoppedAt = Date.now();
    await until('the run to say it waits', () => stderr.includes('stopping once the exec delivery under way ends'));
    expect(child.exitCode).toBeNull();
    expect(alive(pids(pidFile)[0]!)).toBe(true);
    return { child, home, pidFile, gate, ran, stoppedAt, stderr: () => stderr };
  }

  it('--exec: the first stop lets the command under way finish, and saves its recall as delivered', async () => {
    const run = await stoppedDuringExec();
    writeFileSync(run.gate, '');
    const r = await run.child;
    expect(r.exitCode, run.stderr()).toBe(130);
    const written = idsIn(path.join(run.home, 'out.jsonl'));
    expect(readFileSync(run.ran, 'utf8')).toBe(`${written[0]}\n`);
    // One command ran, to its end; the rest wait, untried.
    expect(pids(run.pidFile)).toHaveLength(1);
    const state = JSON.parse(readFileSync(path.join(run.home, 'seen.json'), 'utf8')) as {
      pending: { id: string; done: string[]; attempts: number }[];
    };
    expect(state.pending.map((p) => [p.id, p.done, p.attempts])).toEqual(written.slice(1).map((id) => [id, [], 0]));
  }, 60_000);

  it('--exec: a second one ends the run at once and kills the command, whose recall stays pending', async () => {
    const run = await stoppedDuringExec();
    await until(
      'the time an exit hook may re-raise a signal',
      () => Date.now() - run.stoppedAt > SECOND_SIGNAL_AFTER_MS,
    );
    run.child.kill('SIGINT');
    const r = await run.child;
    expect(r.exitCode, run.stderr()).toBe(130);
    const [pid] = pids(run.pidFile);
    await until('the command gone with the run', () => !alive(pid!), 5000);
    expect(existsSync(run.ran)).toBe(false);
    const written = idsIn(path.join(run.home, 'out.jsonl'));
    const state = JSON.parse(readFileSync(path.join(run.home, 'seen.json'), 'utf8')) as {
      pending: { id: string; done: string[] }[];
    };
    expect(state.pending.map((p) => [p.id, p.done])).toEqual(written.map((id) => [id, []]));
  }, 60_000);
});
