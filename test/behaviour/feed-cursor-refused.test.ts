// A next_cursor the API sent and then refuses (400 "Invalid cursor: expired" on page 2): the export starts the window
// over once, without repeating a record; refused again, it keeps what it wrote and exits 7. A --cursor the user typed
// that is refused stays their input: exit 2.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain } from '../helpers/in-process.js';
import { errorBody, feedBody } from '../helpers/scripted-server.js';
import { printedCommand } from '../helpers/shell-words.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = { RECALL_FEED_API_KEY: 'dr_test_0123456789abcdef0123456789abcdef01234567' };

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  alert_title: `recall ${id}`,
  published_at: '2026-03-10T00:00:00',
  updated_at: '2026-03-10T00:00:00',
  created_in_db_at: '2026-03-10T01:00:00.000000+00:00',
});

/**
 * A feed of `ids` (newest first) in pages of `limit`. Each first-page request starts a new generation of cursors
 * (`g<generation>-<offset>`); a cursor of a generation below `acceptFrom` has expired and is refused with the
 * sandbox's 400.
 */
async function expiringFeed(ids: () => number[]) {
  let generation = 0;
  const state = { acceptFrom: 1, refusals: 0 };
  const server = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const cursor = url.searchParams.get('cursor');
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let gen: number;
    let offset: number;
    if (cursor === null) {
      gen = ++generation;
      offset = 0;
    } else {
      const m = /^g(\d+)-(\d+)$/.exec(cursor);
      gen = Number(m?.[1] ?? 0);
      offset = Number(m?.[2] ?? 0);
      if (gen < state.acceptFrom) {
        state.refusals++;
        return send(
          400,
          errorBody('validation_error', 'Invalid cursor: expired', { provided: cursor, reason: 'expired' }),
        );
      }
    }
    const all = ids();
    const page = all.slice(offset, offset + limit).map(record);
    const more = offset + limit < all.length;
    send(200, feedBody(page, { hasMore: more, next: more ? `g${gen}-${offset + limit}` : null }));
  });
  const cursors = () => server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('cursor'));
  return { server, state, cursors, nextGeneration: () => generation + 1 };
}

const idsIn = (jsonl: string) =>
  jsonl
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);

describe('a cursor the API refuses mid-run', () => {
  it('starts the window over once and writes every record once', async () => {
    // A recall arrives while the cursor expires: the window's new run has it first.
    const feed = await expiringFeed(() => (feed.state.refusals > 0 ? [7, 6, 5, 4, 3, 2, 1] : [6, 5, 4, 3, 2, 1]));
    feed.state.acceptFrom = 2; // the first run of cursors has expired by the time page 2 is asked for
    const dir = tempDir('rf-cursor-');
    const out = path.join(dir, 'out.jsonl');
    const result = await runMain(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-o', out], { env: KEY });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'recall-feed: the API refused the cursor (Invalid cursor: expired); starting over from the first page, skipping the recalls already written\n',
    );
    expect(feed.cursors()).toEqual([null, 'g1-2', null, 'g2-2', 'g2-4', 'g2-6']);
    // 6 and 5 from the first page; the new run's first page adds only 7.
    expect(idsIn(readFileSync(out, 'utf8'))).toEqual([6, 5, 7, 4, 3, 2, 1]);
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  it('refused again after starting over: keeps the partial, exits 7 and says how to resume; --resume finishes it', async () => {
    const ids = [6, 5, 4, 3, 2, 1];
    const feed = await expiringFeed(() => ids);
    feed.state.acceptFrom = Number.POSITIVE_INFINITY; // every cursor has expired
    const dir = tempDir('rf-cursor-');
    const out = path.join(dir, 'out.jsonl');
    const failed = await runMain(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-o', out], {
      env: KEY,
    });
    expect(failed.code).toBe(7);
    expect(failed.stdout).toBe('');
    const lines = failed.stderr.split('\n');
    expect(lines[0]).toBe(
      'recall-feed: the API refused the cursor (Invalid cursor: expired); starting over from the first page, skipping the recalls already written',
    );
    expect(lines[1]).toBe(
      'error: invalid response from the API: the API refused the next_cursor it had sent (Invalid cursor: expired), again after starting over from the first page',
    );
    expect(lines[2]).toBe(`hint: ${out} is unchanged; 2 records are kept in ${out}.partial. To finish, run:`);
    const command = printedCommand(failed.stderr);
    expect(command).toEqual(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-o', out, '--resume']);
    expect(feed.cursors()).toEqual([null, 'g1-2', null, 'g2-2']);
    expect(readdirSync(dir).sort()).toEqual(['out.jsonl.partial', 'out.jsonl.partial.json']);
    expect(idsIn(readFileSync(`${out}.partial`, 'utf8'))).toEqual([6, 5]);
    expect(existsSync(out)).toBe(false);

    // The cursor the partial kept has expired too: the resume starts the window over, skipping what the partial holds.
    feed.state.acceptFrom = feed.nextGeneration();
    const resumed = await runMain(command, { env: KEY });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toBe(
      'recall-feed: the API refused the cursor (Invalid cursor: expired); starting over from the first page, skipping the recalls already written\n',
    );
    expect(feed.cursors().slice(4)).toEqual(['g2-2', null, 'g3-2', 'g3-4']);
    expect(idsIn(readFileSync(out, 'utf8'))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  it('to stdout: exits 7 after the records written, and the command to run again has no cursor', async () => {
    const feed = await expiringFeed(() => [4, 3, 2, 1]);
    feed.state.acceptFrom = Number.POSITIVE_INFINITY;
    const failed = await runMain(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-f', 'jsonl'], {
      env: KEY,
    });
    expect(failed.code).toBe(7);
    expect(idsIn(failed.stdout)).toEqual([4, 3]);
    expect(failed.stderr).toMatch(
      /\nhint: 2 records were written; the API no longer takes the cursor after them\. To fetch the window again, run:\n/,
    );
    expect(printedCommand(failed.stderr)).toEqual([
      '--base-url',
      feed.server.url,
      'feed',
      '--page-size',
      '2',
      '-f',
      'jsonl',
    ]);
    expect(feed.cursors()).toEqual([null, 'g1-2', null, 'g2-2']);
  });

  it('a --cursor the user gave that is refused is their input: exit 2, one request, nothing written', async () => {
    const feed = await expiringFeed(() => [4, 3, 2, 1]);
    feed.state.acceptFrom = 5;
    const dir = tempDir('rf-cursor-');
    const out = path.join(dir, 'out.jsonl');
    const refused = await runMain(
      ['--base-url', feed.server.url, 'feed', '--page-size', '2', '--cursor', 'g1-2', '-o', out],
      { env: KEY },
    );
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.split('\n')[0]).toBe('error: the API rejected the request: Invalid cursor: expired');
    expect(feed.cursors()).toEqual(['g1-2']);
    expect(readdirSync(dir)).toEqual([]);
  });
});
