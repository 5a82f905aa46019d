// A server that never lets paging end with a fresh cursor on every page: it ignores the cursor (the same records
// again), sends empty pages that say more follow, or makes up records far past its total_count. feed, feed --state
// and sync stop with exit 7 and one line, keeping the partial as for a repeated cursor, instead of spending the quota.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { fakeClock, runMain } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, lines } from '../helpers/sandbox.js';
import { feedBody } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const record = (id: number) => ({ id, data_source: 'us_cpsc', published_at: '2026-03-10T00:00:00' });

const STALE =
  'error: invalid response from the API: the API sent 3 pages in a row with no record it had not already sent in this run, each with a new next_cursor: paging stopped rather than spend requests on it';

/** Answers the n-th feed request (1 on) with `page(n)`, whatever cursor it carries; /v1/recalls/sources too. */
async function pagingServer(page: (n: number) => ReturnType<typeof feedBody>) {
  let n = 0;
  const server = await handlerServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/v1/recalls/sources')) {
      res.end(JSON.stringify({ success: true, data_sources: [], total_available: 0 }));
      return;
    }
    n++;
    res.end(JSON.stringify(page(n)));
  });
  const feedRequests = () => server.requests.filter((r) => r.url.startsWith('/v1/recalls/feed'));
  return { server, feedRequests };
}

/** Records 1 and 2 on every page, and a new cursor each time: the cursor is ignored. */
const ignoresCursor = (n: number) => feedBody([record(1), record(2)], { hasMore: true, next: `c${n}` });

const run = (url: string, args: string[]) =>
  runMain(['--base-url', url, ...args], { clock: fakeClock(), env: { RECALL_FEED_API_KEY: ALL_KEY } });

describe('a server that ignores the cursor', () => {
  it('feed -o: exit 7 after the 3rd page with nothing new; the partial keeps the 2 records', async () => {
    const { server, feedRequests } = await pagingServer(ignoresCursor);
    const dir = tempDir();
    const out = path.join(dir, 'x.jsonl');
    const r = await run(server.url, ['feed', '-o', out]);
    expect(r.code).toBe(7);
    expect(lines(r.stderr)[0]).toBe(STALE);
    expect(r.stderr).toContain('--resume');
    // The first page brought 1 and 2; pages 2, 3 and 4 nothing new.
    expect(feedRequests()).toHaveLength(4);
    expect(readdirSync(dir).sort()).toEqual(['x.jsonl.partial', 'x.jsonl.partial.json']);
    expect(jsonLines(readFileSync(`${out}.partial`, 'utf8')).map((x) => x.id)).toEqual([1, 2]);
  });

  it('feed --state: exit 7, the same line, 4 requests', async () => {
    const { server, feedRequests } = await pagingServer(ignoresCursor);
    const state = path.join(tempDir(), 'seen.json');
    const r = await run(server.url, ['feed', '-f', 'jsonl', '--state', state]);
    expect(r.code).toBe(7);
    expect(lines(r.stderr)[0]).toBe(STALE);
    expect(feedRequests()).toHaveLength(4);
  });

  it('sync: exit 7, the same line, a handful of requests', async () => {
    const { server, feedRequests } = await pagingServer(ignoresCursor);
    const r = await run(server.url, ['sync', '--db', path.join(tempDir(), 'a.db')]);
    expect(r.code).toBe(7);
    expect(lines(r.stderr)).toContain(STALE);
    expect(feedRequests().length).toBeLessThanOrEqual(5);
  });
});

describe('empty pages that say more follow, each with a new cursor', () => {
  it('feed: exit 7 after 3 of them, nothing on stdout', async () => {
    const { server, feedRequests } = await pagingServer((n) => feedBody([], { hasMore: true, next: `c${n}` }));
    const r = await run(server.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)[0]).toBe(STALE);
    expect(feedRequests()).toHaveLength(3);
  });
});

describe('new records on every page, far past total_count', () => {
  it('feed: stops after 2 x the pages total_count needs + 10 (12 for 10 records in pages of 50), exit 7', async () => {
    const page = (n: number) => {
      const body = feedBody([record(2 * n - 1), record(2 * n)], { hasMore: true, next: `c${n}` });
      body.pagination.total_count = 10;
      return body;
    };
    const { server, feedRequests } = await pagingServer(page);
    const r = await run(server.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(7);
    expect(lines(r.stderr)[0]).toBe(
      'error: invalid response from the API: the API still said more pages follow after 12 pages of up to 50 records, for a total_count of 10: paging stopped rather than spend requests on it',
    );
    expect(feedRequests()).toHaveLength(12);
    // Each page's records were new, and written before the run stopped.
    expect(jsonLines(r.stdout)).toHaveLength(24);
  });
});
