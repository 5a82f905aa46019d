// Spawns the built CLI with execa in a clean environment; every child still running when its test ends is killed.
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from './cleanup.js';
import { ALL_KEY } from './sandbox.js';
import { tempDir } from './temp-dir.js';

// Re-exported so that every end-to-end test needs one import.
export { ALL_KEY, FIXED_START, GENEROUS_LIMITS, jsonLines, LIMITED_KEY, lines, sandboxFor } from './sandbox.js';
export { tempDir } from './temp-dir.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/recall-feed.cjs');

if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
  throw new Error('dist/ is missing: run `npm run build` (npm test does it for you)');
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeout?: number;
  /** stdout onto this file opened for appending, as `>> file` does in a shell (the result's stdout is then empty). */
  appendStdoutTo?: string;
}

/**
 * A clean environment: no inherited keys, proxies or colour settings; a home and a config dir of
 * its own (removed when the test ends) unless `extra` names them.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    // Kept, so that anything a child puts in the temp directory lands where the run looks for leftovers.
    TMPDIR: process.env.TMPDIR,
    HOME: 'HOME' in extra ? undefined : tempDir('rf-home-'),
    RECALL_FEED_CONFIG_DIR: 'RECALL_FEED_CONFIG_DIR' in extra ? undefined : tempDir('rf-config-'),
    TERM: 'dumb',
    ...extra,
  };
}

export function runCli(args: string[], opts: RunOptions = {}): ResultPromise<{ reject: false }> {
  // The child gets the descriptor itself (execa's { file, append } would pipe it): a regular file, as from a shell.
  const appendFd = opts.appendStdoutTo === undefined ? undefined : openSync(opts.appendStdoutTo, 'a');
  const child = execa('node', [BIN, ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv(opts.env),
    input: opts.input,
    cwd: opts.cwd ?? ROOT,
    timeout: opts.timeout ?? 60_000,
    stripFinalNewline: false,
    // execa takes any descriptor number; its types name only 0-2.
    stdout: (appendFd ?? 'pipe') as 'pipe',
  }) as ResultPromise<{ reject: false }>;
  if (appendFd !== undefined) child.finally(() => closeSync(appendFd)).catch(() => {});
  deferCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await child;
  });
  return child;
}

/** `runCli` against `sandbox` with the all-sources demo key. */
export function runAgainst(sandbox: Sandbox, args: string[], opts: RunOptions = {}) {
  return runCli(['--base-url', sandbox.url, ...args], {
    ...opts,
    env: { RECALL_FEED_API_KEY: ALL_KEY, ...opts.env },
  });
}
