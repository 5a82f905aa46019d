// stdout that cannot be written (a full disk: `recall-feed config list > /dev/full`) fails every command the same way:
// one error line, exit 10, as a command writing through the output service fails (test/e2e/launcher.test.ts), when
// the command writes to stdout itself.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Context, OutStream } from '../../src/runtime/context.js';
import { fakeClock, runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A stream every write to which fails as a write to /dev/full does (ENOSPC), with what it was asked to write. */
function fullDisk(): OutStream {
  const out = new Writable({
    write(_chunk, _enc, callback) {
      const err = Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
      callback(err);
    },
  });
  // As process-context.ts does for the real stdout: the error is heard, so it ends nothing by itself.
  out.on('error', () => {});
  return out;
}

class Collected extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString('utf8');
    callback();
  }
}

/** `args` with stdout on a full disk, and a profile that holds a base URL and a format (so config has lines to list). */
async function runOnFullDisk(args: string[]): Promise<{ code: number; stderr: string }> {
  const config = tempDir('rf-config-');
  for (const [key, value] of [
    ['base-url', 'https://api.example.com'],
    ['format', 'csv'],
  ] as const) {
    const set = await runMain(['config', 'set', key, value], { env: { RECALL_FEED_CONFIG_DIR: config } });
    expect(set.code, set.stderr).toBe(0);
  }
  const stderr = new Collected();
  const clock = fakeClock();
  const stdin = new PassThrough();
  stdin.end();
  const ctx: Context = {
    stdout: fullDisk(),
    stderr,
    stdin,
    env: { TERM: 'dumb', RECALL_FEED_CONFIG_DIR: config, RECALL_FEED_CACHE_DIR: tempDir('rf-cache-') },
    now: () => clock.now(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    signal: new AbortController().signal,
  };
  const code = await main(args, ctx);
  return { code, stderr: stderr.text };
}

const DISK_FULL = 'error: cannot write the output: the disk is full\nhint: free some space, or write to another disk\n';

describe('stdout on a full disk', () => {
  it.each([
    [['config', 'path']],
    [['config', 'list']],
    [['config', 'get', 'base-url']],
    [['schema', 'record']],
    [['completion', 'bash']],
    [['help', 'formats']],
    [['--help']],
  ])('%j: one error line, exit 10', async (args) => {
    const r = await runOnFullDisk(args);
    expect(r.stderr).toBe(DISK_FULL);
    expect(r.code).toBe(10);
  });
});
