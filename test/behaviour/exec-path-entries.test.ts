// --exec's program lookup before any request: a PATH entry that is a file, and a program name too long for the
// system, give the documented "command not found" (exit 2), not an unexpected error (exit 1).
import { writeFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('--exec lookup', () => {
  it('PATH with a file in it, and a program found nowhere: command not found, exit 2', async () => {
    const dir = tempDir('rf-exec-path-');
    const file = path.join(dir, 'hostname');
    writeFileSync(file, 'box\n');
    const r = await runMain(
      [
        'feed',
        '--sandbox',
        '--state',
        path.join(dir, 's.json'),
        '--exec',
        'rf-no-such-command-xyz {id}',
        '-f',
        'jsonl',
      ],
      { env: { PATH: `${file}:${dir}` } },
    );
    expect(r.stderr).toBe(
      'error: --exec: command not found: rf-no-such-command-xyz\nhint: install it, or give its full path (PATH is searched)\n',
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('a program name of 300 characters: where the search stops, exit 2 before any request', async () => {
    const dir = tempDir('rf-exec-path-');
    const long = 'x'.repeat(300);
    const r = await runMain(['sync', '--sandbox', '--db', path.join(dir, 'x.db'), '--exec', `${long} {id}`], {
      env: { PATH: dir },
    });
    expect(r.stderr).toBe(
      `error: --exec: ${long} cannot be looked up: a link loop or a name too long on the way, where the search for it stops\nhint: mend PATH, or give the program its full path\n`,
    );
    expect(r.code).toBe(2);
  });

  it('a PATH entry that is a link loop before the program: refused, as every spawn would fail there', async () => {
    const dir = tempDir('rf-exec-path-');
    const loop = path.join(dir, 'loop');
    symlinkSync(loop, loop);
    const r = await runMain(['sync', '--sandbox', '--db', path.join(dir, 'x.db'), '--exec', 'echo {id}'], {
      env: { PATH: `${loop}:/usr/bin:/bin` },
    });
    expect(r.stderr).toContain('error: --exec: echo cannot be looked up');
    expect(r.code).toBe(2);
  });
});
