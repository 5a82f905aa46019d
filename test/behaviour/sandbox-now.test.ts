// --sandbox-now and RECALL_FEED_SANDBOX_NOW: a --sandbox run, and `recall-feed sandbox`, on a clock pinned to one instant.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeAgent, get } from './sandbox-helpers.js';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, trackedSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

afterAll(closeAgent);

const PIN = '2026-06-01T12:00:00Z';
const PIN_MS = Date.parse(PIN);

/** The first ids of the last hour's feed, as a sandbox on the calendar pinned at `atMs` answers them when asked directly. */
async function idsAt(atMs: number, limit: number): Promise<number[]> {
  const sandbox = await trackedSandbox({ calendar: true, clock: () => atMs, rateLimits: false });
  const page = await get(sandbox.url, `/v1/recalls/feed?hours_ago=1&limit=${limit}`);
  await sandbox.close();
  return page.json.data.map((r: { id: number }) => r.id);
}

describe('a --sandbox run with a pinned now', () => {
  it('sees the recalls the calendar holds at that instant, the same in every run', async () => {
    const args = ['feed', '--sandbox', '--hours', '1', '--max', '5', '-f', 'jsonl'];
    const first = await runMain(args, { env: { RECALL_FEED_SANDBOX_NOW: PIN } });
    const again = await runMain(args, { env: { RECALL_FEED_SANDBOX_NOW: PIN } });
    expect(first.code).toBe(0);
    expect(jsonLines(first.stdout).map((r) => r.id)).toEqual(await idsAt(PIN_MS, 5));
    expect(again.stdout).toBe(first.stdout);
  });

  it('takes --sandbox-now over the variable', async () => {
    const later = '2026-06-03T08:00:00Z';
    const run = await runMain(
      ['feed', '--sandbox', '--sandbox-now', later, '--hours', '1', '--max', '3', '-f', 'jsonl'],
      {
        env: { RECALL_FEED_SANDBOX_NOW: PIN },
      },
    );
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((r) => r.id)).toEqual(await idsAt(Date.parse(later), 3));
  });

  it("dates the run's own windows from the pinned instant: a sync and a query --since 1h agree", async () => {
    const env = { RECALL_FEED_SANDBOX_NOW: PIN, XDG_DATA_HOME: tempDir('rf-pin-data-') };
    expect((await runMain(['sync', '--sandbox', '--hours', '1'], { env })).code).toBe(0);
    const query = await runMain(['query', '--sandbox', '--since', '1h', '-f', 'jsonl'], { env });
    expect(query.code).toBe(0);
    const published = jsonLines(query.stdout).map((r) => Date.parse(`${r.published_at as string}Z`));
    expect(published.length).toBeGreaterThan(0);
    expect(Math.min(...published)).toBeGreaterThanOrEqual(PIN_MS - 3_600_000);
    expect(Math.max(...published)).toBeLessThanOrEqual(PIN_MS);
  });

  it("stores what a sync fetched in the pinned world's time: a digest six hours later counts every recall it stored", async () => {
    const env = { XDG_DATA_HOME: tempDir('rf-pin-digest-') };
    const sync = await runMain(['sync', '--sandbox', '-f', 'json'], {
      env: { ...env, RECALL_FEED_SANDBOX_NOW: '2026-06-01T06:00:00Z' },
    });
    expect(sync.code, sync.stderr).toBe(0);
    const stored = JSON.parse(sync.stdout) as { new: number };
    expect(stored.new).toBeGreaterThan(0);
    const digest = await runMain(['digest', '--sandbox', '-f', 'json'], {
      env: { ...env, RECALL_FEED_SANDBOX_NOW: PIN },
    });
    expect(digest.code, digest.stderr).toBe(0);
    const summary = JSON.parse(digest.stdout) as { counts: { new: number }; health: { runs: { ok: number } } };
    // Stamped by the real clock (months after the pin), they fell outside every pinned digest: 0 new.
    expect([summary.counts.new, summary.health.runs.ok]).toEqual([stored.new, 1]);
  });

  it('stamps the case events a sync writes with the pinned instant: closed cases reopened by updates', async () => {
    const home = tempDir('rf-pin-cases-');
    const at = (pin: string) => ({ env: { XDG_DATA_HOME: home, RECALL_FEED_SANDBOX_NOW: pin } });
    const [first, later] = ['2026-06-01T06:00:00Z', '2026-06-02T00:00:00Z'];
    const sync = await runMain(['sync', '--sandbox'], at(first));
    expect(sync.code, sync.stderr).toBe(0);
    // A catalogue row for the first barcode of every recall stored: cases on many recalls, some updated later.
    const stored = jsonLines((await runMain(['query', '--sandbox', '-f', 'jsonl'], at(first))).stdout);
    const codes = stored
      .map((r) => (r.standard_identifiers_and_barcodes as unknown[])[0])
      .map((c) => /\b\d{13}\b/.exec(typeof c === 'string' ? c : String((c as { value?: unknown })?.value))?.[0])
      .filter((c) => c !== undefined);
    const catalog = path.join(home, 'products.csv');
    writeFileSync(catalog, ['sku,gtin', ...codes.map((c, i) => `P${i},${c}`)].join('\n'));
    const opened = await runMain(['match', '--sandbox', '--archive', '--catalog', catalog, '--open-cases'], at(first));
    expect(opened.code, opened.stderr).toBe(0);
    const resolved = await runMain(
      ['cases', 'resolve', '--sandbox', '--status', 'open', '--as', 'false-positive', '--yes'],
      at(first),
    );
    expect(resolved.code, resolved.stderr).toBe(0);
    const again = await runMain(['sync', '--sandbox'], at(later));
    expect(again.code, again.stderr).toBe(0);
    const reopened = jsonLines((await runMain(['cases', '--sandbox', '-f', 'jsonl'], at(later))).stdout);
    expect(reopened.length).toBeGreaterThan(0);
    for (const c of reopened) {
      const shown = await runMain(['cases', 'show', String(c.id), '--sandbox', '-f', 'json'], at(later));
      const events = (JSON.parse(shown.stdout) as { events: { action: string; at: string }[] }).events;
      expect(events.map((e) => e.action)).toEqual(['opened', 'resolved', 'reopened']);
      expect(events.map((e) => e.at)).toEqual([first, first, later].map((t) => new Date(t).toISOString()));
    }
  });

  it('refuses a value that is not a time with its zone (exit 2), naming where it came from', async () => {
    const run = await runMain(['feed', '--sandbox'], { env: { RECALL_FEED_SANDBOX_NOW: '2026-06-01 12:00' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "error: RECALL_FEED_SANDBOX_NOW must be an ISO 8601 time with its zone, e.g. 2026-06-01T12:00:00Z, not '2026-06-01 12:00'",
    );
    expect(run.stdout).toBe('');
  });
});

describe('without --sandbox', () => {
  it('refuses --sandbox-now, which it could not honour (exit 2, nothing sent)', async () => {
    const sandbox = await trackedSandbox({ calendar: true, rateLimits: false });
    const run = await runMain(['--base-url', sandbox.url, 'feed', '--sandbox-now', PIN, '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'error: --sandbox-now pins the clock of a --sandbox run or of `recall-feed sandbox` only',
    );
    expect(sandbox.requests()).toEqual([]);
  });

  it('leaves the variable unused: a run against another server keeps its own time', async () => {
    const sandbox = await trackedSandbox({ calendar: true, rateLimits: false });
    const args = ['--base-url', sandbox.url, 'stats', '--live', '--by', 'day', '-f', 'csv'];
    const plain = await runMain(args, { env: { RECALL_FEED_API_KEY: ALL_KEY } });
    const pinned = await runMain(args, { env: { RECALL_FEED_API_KEY: ALL_KEY, RECALL_FEED_SANDBOX_NOW: PIN } });
    expect(plain.code).toBe(0);
    expect(pinned.code).toBe(0);
    expect(pinned.stdout).toBe(plain.stdout);
    expect(pinned.stdout).not.toContain('2026-06-01');
  });
});

describe('recall-feed sandbox --sandbox-now', () => {
  it('serves the calendar from that instant on', async () => {
    const stop = new AbortController();
    let stdout = '';
    const running = runMain(['sandbox', '--sandbox-now', PIN, '--json'], {
      signal: stop.signal,
      onOutput: (stream, text) => {
        if (stream === 'stdout') stdout += text;
      },
    });
    await until('the sandbox prints its URL', () => stdout.includes('\n'));
    const { url } = JSON.parse(stdout) as { url: string };
    const page = await get(url, '/v1/recalls/feed?hours_ago=1&limit=3');
    stop.abort();
    expect((await running).code).toBe(0);
    expect(page.json.data.map((r: { id: number }) => r.id)).toEqual(await idsAt(PIN_MS, 3));
  });

  it('refuses --start-time beside it (exit 2)', async () => {
    const run = await runMain(['sandbox', '--sandbox-now', PIN, '--start-time', PIN]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: --start-time and --sandbox-now both set the sandbox's time");
  });
});
