// Sandboxes for tests: on port 0, fixed or generous limits, closed when the test (or file) that started them ends.
import { DEMO_KEYS, startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { deferCleanup } from './cleanup.js';

export const ALL_KEY = DEMO_KEYS.all.key;
export const LIMITED_KEY = DEMO_KEYS.limited.key;

/** Fixed data: the same seed and start time give byte-identical records. */
export const FIXED_START = Date.parse('2026-01-15T12:00:00Z');

/** Limits far above what a test sends; the sandbox reports them, so the CLI's pacing never waits. */
export const GENEROUS_LIMITS = {
  minute: { limit: 1_000_000, windowMs: 60_000 },
  hour: { limit: 1_000_000, windowMs: 3_600_000 },
  day: { limit: 1_000_000, windowMs: 86_400_000 },
  month: { limit: 10_000_000 },
};

/** startSandbox as given, closed when the test (or file) ends; closing it yourself is allowed but not needed. */
export async function trackedSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(opts);
  deferCleanup(() => sandbox.close());
  return sandbox;
}

/** A tracked sandbox on a loopback port 0 with limits no test reaches. */
export function sandboxFor(opts: SandboxOptions = {}): Promise<Sandbox> {
  return trackedSandbox({ port: 0, rateLimits: GENEROUS_LIMITS, ...opts });
}

/** `fn` with a sandboxFor(opts) of its own, closed as soon as `fn` ends (not only when the test does). */
export async function withSandbox<T>(opts: SandboxOptions, fn: (s: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await sandboxFor(opts);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

export function jsonLines(text: string): Record<string, unknown>[] {
  return lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The first `n` ids of the feed as the sandbox itself answers them, asked directly (not through the CLI). */
export async function sandboxFirstIds(sandbox: Sandbox, n: number): Promise<unknown[]> {
  const res = await fetch(`${sandbox.url}/v1/recalls/feed?limit=${n}`, { headers: { 'x-api-key': ALL_KEY } });
  if (res.status !== 200) throw new Error(`the sandbox's feed answered ${res.status}`);
  const body = (await res.json()) as { data: { id: unknown }[] };
  return body.data.map((r) => r.id);
}
