// Shared by the digest-period tests (in process and the SQLite write-lock one in its own process): a boundary instant, a
// JSON digest over a period, and the check that every stored recall is in exactly one of two consecutive digests.
import { expect } from 'vitest';
import type { TestArchive } from './archive-engines.js';
import { fakeClock, runMain } from './in-process.js';
import { ALL_KEY } from './sandbox.js';
import { until } from './wait.js';

export interface DigestJson {
  recalls: { new: { id: number }[]; updated: { id: number }[] };
  health: { complete: boolean; sources_missing: string[]; writes_settled: boolean };
}

/** An instant after every commit so far and before every later one. */
export async function boundary(): Promise<number> {
  const at = Date.now() + 2;
  await until('the clock to pass a boundary', () => Date.now() > at);
  return at;
}

export const iso = (ms: number) => new Date(ms).toISOString();
const ids = (d: DigestJson) => [...d.recalls.new, ...d.recalls.updated].map((r) => r.id);

/** `digest -f json` over [fromMs, toMs) in process, which must succeed with nothing on stderr. */
export async function digestPeriod(db: string, sandboxUrl: string, fromMs: number, toMs: number, clock = fakeClock()) {
  const r = await runMain(
    ['--base-url', sandboxUrl, 'digest', '--db', db, '--since', iso(fromMs), '--until', iso(toMs), '-f', 'json'],
    { env: { RECALL_FEED_API_KEY: ALL_KEY }, clock },
  );
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { json: JSON.parse(r.stdout) as DigestJson, sleeps: r.sleeps };
}

/** Every recall the archive holds is in exactly one of the two digests. */
export async function expectEachOnce(archive: TestArchive, a: DigestJson, b: DigestJson): Promise<void> {
  const stored = (await archive.rows<{ id: number | string }>('SELECT id FROM recalls')).map((r) => Number(r.id));
  const both = [...ids(a), ...ids(b)];
  expect(new Set(both).size).toBe(both.length);
  expect(both.sort((x, y) => x - y)).toEqual(stored.sort((x, y) => x - y));
}
