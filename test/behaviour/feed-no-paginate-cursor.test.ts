// --no-paginate asks for one page: a page that says more follow but sends no next_cursor is still that page, written
// whole, exit 0; only a run that goes on to the next page finds the missing cursor an error (exit 7).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, lines } from '../helpers/sandbox.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const record = (id: number) => ({ id, data_source: 'us_cpsc', published_at: '2026-03-10T00:00:00' });
const NO_CURSOR = { body: feedBody([record(1), record(2)], { hasMore: true, next: null }) };

const run = (url: string, args: string[]) =>
  runMain(['--base-url', url, ...args], { env: { RECALL_FEED_API_KEY: ALL_KEY } });

describe('has_more without a next_cursor', () => {
  it.each(['jsonl', 'csv'])('feed -f %s --no-paginate: the page is written, exit 0, one request', async (format) => {
    const srv = await scriptedServer([NO_CURSOR]);
    const r = await run(srv.url, ['feed', '-f', format, '--no-paginate']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('error:');
    if (format === 'jsonl') expect(jsonLines(r.stdout).map((x) => x.id)).toEqual([1, 2]);
    else expect(lines(r.stdout)).toHaveLength(3);
    expect(srv.requests).toHaveLength(1);
  });

  it('feed without --no-paginate: exit 7 on the missing cursor, the page not written', async () => {
    const srv = await scriptedServer([NO_CURSOR]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)[0]).toBe(
      'error: invalid response from the API: the API said more pages follow but sent no next_cursor',
    );
    expect(srv.requests).toHaveLength(1);
  });

  it('feed -o: the partial keeps the cursor of the page without one, and --resume asks for that page again', async () => {
    const dir = tempDir('rf-no-cursor-resume-');
    const out = path.join(dir, 'x.jsonl');
    const first = { body: feedBody([record(1), record(2)], { hasMore: true, next: 'c2' }) };
    const broken = { body: feedBody([record(3)], { hasMore: true, next: null }) };
    const srv = await scriptedServer([first, broken]);
    const failed = await run(srv.url, ['feed', '-o', out]);
    expect(failed.code).toBe(7);
    expect(existsSync(out)).toBe(false);
    // Page c2 answered right this time: the resume asks for it (not a fresh window), and the file holds every record once.
    const fixed = await scriptedServer([{ body: feedBody([record(3), record(4)], { hasMore: false, next: null }) }]);
    const resumed = await run(fixed.url, ['feed', '-o', out, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fixed.requests.map((q) => new URL(q.url, 'http://x').searchParams.get('cursor'))).toEqual(['c2']);
    expect(jsonLines(readFileSync(out, 'utf8')).map((x) => x.id)).toEqual([1, 2, 3, 4]);
  });
});

describe('has_more without a next_cursor, on a page that fills --max', () => {
  it('feed --max 2 takes the page and ends: exit 0, no next page needed', async () => {
    const srv = await scriptedServer([NO_CURSOR]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl', '--max', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout).map((x) => x.id)).toEqual([1, 2]);
    expect(srv.requests).toHaveLength(1);
  });
});
