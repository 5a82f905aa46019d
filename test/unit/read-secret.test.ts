// The hidden key prompt on a (fake) terminal: raw mode on and off, backspace, and Ctrl-C as an interrupt (130).
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Context, InStream } from '../../src/runtime/context.js';
import { main } from '../../src/cli/main.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { tempDir } from '../helpers/temp-dir.js';
import { collector, type Collector } from './output-helpers.js';

interface FakeTty {
  stdin: InStream & PassThrough;
  rawModes: boolean[];
}

function fakeTty(): FakeTty {
  const rawModes: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (mode: boolean) => rawModes.push(mode),
  });
  return { stdin, rawModes };
}

let dir: string;
beforeEach(() => {
  dir = tempDir('rf-secret-');
});

function run(
  tty: FakeTty,
  typed: string | 'EOF' | 'SIGTERM',
): { code: Promise<number>; stdout: Collector; stderr: Collector } {
  const stop = new AbortController();
  const stdout = collector();
  const stderr = collector();
  const ctx: Context = {
    stdout,
    stderr,
    stdin: tty.stdin,
    env: { RECALL_FEED_CONFIG_DIR: dir },
    now: () => 0,
    sleep: async () => {},
    signal: stop.signal,
  };
  const code = main(['config', 'set', 'api-key'], ctx);
  // Typed once the prompt listens, as a person would; or the run is stopped there, as `kill` would.
  const act = () => {
    if (typed === 'EOF') tty.stdin.end();
    else if (typed === 'SIGTERM') stop.abort(new InterruptedError('SIGTERM'));
    else tty.stdin.write(typed);
  };
  tty.stdin.once('resume', () => setImmediate(act));
  return { code, stdout, stderr };
}

describe('config set api-key at a terminal prompt', () => {
  it('Ctrl-C is an interrupt: exit 130, raw mode restored, nothing saved', async () => {
    const tty = fakeTty();
    const r = run(tty, 'rf_live_ab\u0003cd\r');
    expect(await r.code).toBe(130);
    expect(r.stderr.text()).toBe('API key: \nerror: interrupted\n');
    expect(r.stdout.text()).toBe('');
    expect(tty.rawModes).toEqual([true, false]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('SIGTERM at the prompt ends it: exit 130, raw mode restored, nothing saved (it waited for a key)', async () => {
    const tty = fakeTty();
    const r = run(tty, 'SIGTERM');
    expect(await r.code).toBe(130);
    expect(r.stderr.text()).toBe('API key: \nerror: interrupted\n');
    expect(tty.rawModes).toEqual([true, false]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('reads the key without echo, honouring backspace, and saves it', async () => {
    const tty = fakeTty();
    const r = run(tty, 'rf_live_abX\u007fc\r');
    expect(await r.code).toBe(0);
    expect(r.stderr.text()).toMatch(/^API key: \nsaved api-key for profile 'default' in /);
    expect(r.stderr.text()).not.toContain('rf_live');
    expect(tty.rawModes).toEqual([true, false]);
    const file = fs
      .readdirSync(dir)
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .join('');
    expect(file).toContain('"rf_live_abc"');
  });

  it('stdin closing at the prompt ends it instead of hanging: no key, exit 2', async () => {
    const tty = fakeTty();
    const r = run(tty, 'EOF');
    expect(await r.code).toBe(2);
    expect(r.stderr.text()).toMatch(/^API key: \nerror: no key given on stdin\n/);
    expect(tty.rawModes).toEqual([true, false]);
  });
});
