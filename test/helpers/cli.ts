// Spawns the built CLI with execa in a clean environment, and starts sandboxes for it on port 0.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { DEMO_KEYS, startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/recall-feed.js');
export const ALL_KEY = DEMO_KEYS.all.key;
export const LIMITED_KEY = DEMO_KEYS.limited.key;

if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
  throw new Error('dist/ is missing: run `npm run build` (npm test does it for you)');
}

export function tempDir(prefix = 'rf-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeout?: number;
}

/** A clean environment: no inherited keys, proxies or colour settings; a config dir of its own. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: tempDir('rf-home-'),
    RECALL_FEED_CONFIG_DIR: tempDir('rf-config-'),
    TERM: 'dumb',
    ...extra,
  };
}

export function runCli(args: string[], opts: RunOptions = {}): ResultPromise<{ reject: false }> {
  return execa('node', [BIN, ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv(opts.env),
    input: opts.input,
    cwd: opts.cwd ?? ROOT,
    timeout: opts.timeout ?? 60_000,
    stripFinalNewline: false,
  }) as ResultPromise<{ reject: false }>;
}

/** `runCli` against `sandbox` with the all-sources demo key. */
export function runAgainst(sandbox: Sandbox, args: string[], opts: RunOptions = {}) {
  return runCli(['--base-url', sandbox.url, ...args], {
    ...opts,
    env: { RECALL_FEED_API_KEY: ALL_KEY, ...opts.env },
  });
}

/** Fixed data: the same seed and start time give byte-identical records. */
export const FIXED_START = Date.parse('2026-01-15T12:00:00Z');

/** Limits far above what a test sends; the sandbox reports them, so the CLI's pacing never waits. */
export const GENEROUS_LIMITS = {
  minute: { limit: 1_000_000, windowMs: 60_000 },
  hour: { limit: 1_000_000, windowMs: 3_600_000 },
  day: { limit: 1_000_000, windowMs: 86_400_000 },
  month: { limit: 10_000_000 },
};

export function sandboxFor(opts: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, rateLimits: GENEROUS_LIMITS, ...opts });
}

export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

export function jsonLines(text: string): Record<string, unknown>[] {
  return lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);
}
