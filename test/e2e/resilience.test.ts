// A real SIGTERM mid-export keeps the partial file and a resume command; the rest of resilience runs in process (test/behaviour/resilience.test.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { FIXED_START, runAgainst, runCli, sandboxFor, tempDir } from '../helpers/cli.js';
import { printedCommand } from '../helpers/shell-words.js';
import { until } from '../helpers/wait.js';

async function withSandbox<T>(opts: Parameters<typeof sandboxFor>[0], fn: (s: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await sandboxFor(opts);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

describe('interrupts', () => {
  it('SIGTERM mid-export keeps the partial file, prints --resume and exits 130; resuming completes it', async () => {
    await withSandbox({ clock: () => FIXED_START }, async (sandbox) => {
      const dir = tempDir();
      const target = path.join(dir, 'big.csv');
      sandbox.setFaults({ slow: 1, slowMs: 300 });
      const child = runAgainst(sandbox, ['feed', '--page-size', '50', '-o', target]);
      await until('the third page request', () => sandbox.requests().length >= 3);
      child.kill('SIGTERM');
      const first = await child;
      expect(first.exitCode).toBe(130);
      expect(first.stderr).toMatch(/^error: interrupted\n/);
      expect(existsSync(target)).toBe(false);
      expect(existsSync(`${target}.partial`)).toBe(true);
      sandbox.setFaults({});
      const second = await runCli(printedCommand(first.stderr), { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
      expect(second.exitCode).toBe(0);
      const whole = await runAgainst(sandbox, ['feed', '-f', 'csv', '--page-size', '50']);
      expect(readFileSync(target, 'utf8')).toBe(whole.stdout);
      expect(readdirSync(dir)).toEqual(['big.csv']);
    });
  });
});
