// A stop (Ctrl-C, SIGTERM, SIGHUP) that came while `config set` was still loading ends it before it writes anything:
// exit 130. The launcher keeps such a signal and starts the run already stopped (src/runtime/process-context.ts);
// `config set` used to save its value all the same and exit 0.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('config set already stopped when it starts', () => {
  it('config set: exit 130, "interrupted", and no config file written', async () => {
    const dir = tempDir('rf-stopped-loading-');
    const stop = new AbortController();
    stop.abort(new InterruptedError('SIGTERM'));
    const r = await runMain(['config', 'set', 'base-url', 'https://api.example.test'], {
      env: { RECALL_FEED_CONFIG_DIR: path.join(dir, 'config') },
      signal: stop.signal,
    });
    expect([r.code, r.stdout]).toEqual([130, '']);
    expect(r.stderr).toContain('interrupted');
    expect(existsSync(path.join(dir, 'config'))).toBe(false);
  });
});
