// `-o` a named pipe whose reader never came: the run waits for it, as `cat > fifo` does, but an interrupt (Ctrl-C,
// SIGTERM: the context's signal) ends the wait with exit 130, and nothing is sent.
import { closeSync, constants, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ clock: () => FIXED_START });
});
afterAll(() => sandbox.close());

/** Whether a thread of this process sleeps in the kernel waiting for a FIFO's other end (Linux names it so). */
function waitingForPartner(): boolean {
  const tasks = readdirSync('/proc/self/task');
  return tasks.some((t) => {
    try {
      return readFileSync(`/proc/self/task/${t}/wchan`, 'utf8') === 'wait_for_partner';
    } catch {
      return false;
    }
  });
}

it('an interrupt while the open waits for a reader: exit 130 "interrupted", no request, the FIFO stays', async () => {
  const fifo = path.join(tempDir('rf-fifo-'), 'ff');
  await execa('mkfifo', [fifo]);
  // A run that never ends its wait would hold one of Node's threads for ever: a reader, for a moment, lets it go.
  deferCleanup(() => closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)));
  sandbox.clearRequests();
  const controller = new AbortController();
  const running = runMainAgainst(sandbox, ['feed', '--max', '2', '-o', fifo], { signal: controller.signal });
  await until('the run waiting for a reader of the FIFO', waitingForPartner);
  controller.abort();
  const ended = await Promise.race([
    running,
    new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 10_000).unref()),
  ]);
  expect(ended).not.toBe('still waiting');
  if (ended === 'still waiting') return;
  expect(ended.code).toBe(130);
  expect(ended.stderr).toBe('error: interrupted\n');
  expect(ended.stdout).toBe('');
  expect(sandbox.requests()).toEqual([]);
  expect(statSync(fifo).isFIFO()).toBe(true);
  // Nothing of the run is left waiting: no thread sleeps on the FIFO any more.
  expect(waitingForPartner()).toBe(false);
});
