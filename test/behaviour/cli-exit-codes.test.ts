// Exit codes, stdout and stderr of whole runs in process (the full tables, and the API's errors such as a rejected key or an
// unreachable API: test/unit/cli-*.test.ts; the same codes from the real process: test/e2e/launcher.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 20 });
});

describe('exit codes of whole runs', () => {
  it.each([
    [['feed', '--hours', '0'], /^error: --hours must be a whole number from 1 to 24, not '0'/],
    [['feed', '--bogus'], /^error: unknown option '--bogus'/],
    [['nonsense'], /^error: unknown command 'nonsense'/],
  ])('%j exits 2 and sends nothing', async (args, message) => {
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(sandbox.requests()).toEqual([]);
  });

  it('an unknown option given a value never prints the value: a mistyped key, a monitor URL, in text and JSON logs', async () => {
    const key = 'dr_live_0123456789abcdefSECRET';
    const monitor = 'https://hc-ping.com/0123456789abcdef0123456789abSECRET';
    for (const [args, flag] of [
      [['feed', `--api-kye=${key}`], '--api-kye'],
      [['doctor', `--monitor=${monitor}`], '--monitor'],
      [['--log-format', 'json', 'sources', `--webhook=${monitor}`], '--webhook'],
      [['query', "--smtp-ur=smtp://u:pa'sswordSECRET@h"], '--smtp-ur'],
      // A value holding a line break (a paste): the rest of it is on lines of its own, never printed either.
      [['feed', `--api-kye=${key}\nSECRET-2`], '--api-kye'],
      [['feed', `--api-ky=${key}\nSECRET-2`], '--api-ky'],
    ] as const) {
      sandbox.clearRequests();
      const r = await runMainAgainst(sandbox, [...args]);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toContain(`unknown option '${flag}=…'`);
      expect(r.stderr).not.toContain('SECRET');
      expect(sandbox.requests()).toEqual([]);
    }
  });

  it('prints help on stdout with exit 0, and usage with exit 2 when no command is given', async () => {
    const help = await runMain(['feed', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--page-size <1-500>/);
    const none = await runMain([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/Usage: recall-feed/);
  });
});
