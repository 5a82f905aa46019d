// `feed` against answers production may give that the sandbox never did: an expired cursor refused in other words
// (a 400 without the word "cursor", FastAPI's 422 list form), pages without `meta` or `data_sources`, and FastAPI's
// `{"detail": "Not Found"}` for an unknown custom feed.
import { readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain } from '../helpers/in-process.js';
import { feedBody } from '../helpers/scripted-server.js';
import { printedCommand } from '../helpers/shell-words.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = { RECALL_FEED_API_KEY: 'dr_test_0123456789abcdef0123456789abcdef01234567' };

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  alert_title: `recall ${id}`,
  published_at: '2026-03-10T00:00:00',
});

/** How the server refuses an expired cursor: production's words, not the sandbox's `Invalid cursor: expired`. */
const REFUSALS = {
  token400: {
    status: 400,
    body: { detail: { error: 'validation_error', message: 'Pagination token has expired', help: 'Start again.' } },
    said: 'Pagination token has expired',
  },
  fastapi422: {
    status: 422,
    body: { detail: [{ type: 'value_error', loc: ['query', 'cursor'], msg: 'cursor expired', input: 'x' }] },
    said: 'cursor: cursor expired',
  },
};

/**
 * A feed of `ids` in pages of `limit`, cursors `g<generation>-<offset>` (a first page starts a generation); a cursor of
 * a generation below `acceptFrom` is refused with `refusal`. `strip` leaves those blocks out of every page.
 */
async function feedServer(ids: number[], refusal: keyof typeof REFUSALS, strip: string[] = []) {
  let generation = 0;
  const state = { acceptFrom: 1 };
  const server = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const cursor = url.searchParams.get('cursor');
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let gen = ++generation;
    let offset = 0;
    if (cursor !== null) {
      generation--;
      const m = /^g(\d+)-(\d+)$/.exec(cursor);
      gen = Number(m?.[1] ?? 0);
      offset = Number(m?.[2] ?? 0);
      if (gen < state.acceptFrom) return send(REFUSALS[refusal].status, REFUSALS[refusal].body);
    }
    const more = offset + limit < ids.length;
    const page: Record<string, unknown> = feedBody(ids.slice(offset, offset + limit).map(record), {
      hasMore: more,
      next: more ? `g${gen}-${offset + limit}` : null,
    });
    for (const key of strip) delete page[key];
    send(200, page);
  });
  const cursors = () => server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('cursor'));
  return { server, state, cursors, nextGeneration: () => generation + 1 };
}

const idsIn = (jsonl: string) =>
  jsonl
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);

const restartLine = (said: string) =>
  `recall-feed: the API refused the cursor (${said}); starting over from the first page, skipping the recalls already written`;

describe.each(Object.keys(REFUSALS) as (keyof typeof REFUSALS)[])('an expired cursor refused as %s', (refusal) => {
  const { said } = REFUSALS[refusal];

  it('on page 2: the window starts over once and every record is written once', async () => {
    const feed = await feedServer([6, 5, 4, 3, 2, 1], refusal);
    feed.state.acceptFrom = 2; // the first generation's cursors have expired
    const dir = tempDir('rf-prod-');
    const out = path.join(dir, 'out.jsonl');
    const r = await runMain(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-o', out], { env: KEY });
    expect(r.stderr).toBe(`${restartLine(said)}\n`);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(feed.cursors()).toEqual([null, 'g1-2', null, 'g2-2', 'g2-4']);
    expect(idsIn(readFileSync(out, 'utf8'))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  it('refused again: exit 7 keeping the partial, and --resume, whose cursor is refused too, starts over', async () => {
    const feed = await feedServer([6, 5, 4, 3, 2, 1], refusal);
    feed.state.acceptFrom = Number.POSITIVE_INFINITY;
    const dir = tempDir('rf-prod-');
    const out = path.join(dir, 'out.jsonl');
    const failed = await runMain(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-o', out], { env: KEY });
    expect(failed.code).toBe(7);
    expect(failed.stdout).toBe('');
    const lines = failed.stderr.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      restartLine(said),
      `error: invalid response from the API: the API refused the next_cursor it had sent (${said}), again after starting over from the first page`,
      `hint: ${out} is unchanged; 2 records are kept in ${out}.partial. To finish, run:`,
    ]);
    const command = printedCommand(failed.stderr);
    expect(command).toEqual(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-o', out, '--resume']);
    expect(feed.cursors()).toEqual([null, 'g1-2', null, 'g2-2']);
    expect(idsIn(readFileSync(`${out}.partial`, 'utf8'))).toEqual([6, 5]);

    // The partial's cursor (g2-2) is the API's own, refused in the same words: the resume starts the window over.
    feed.state.acceptFrom = feed.nextGeneration();
    const resumed = await runMain(command, { env: KEY });
    expect(resumed.stderr).toBe(`${restartLine(said)}\n`);
    expect(resumed.code).toBe(0);
    expect(feed.cursors().slice(4)).toEqual(['g2-2', null, 'g3-2', 'g3-4']);
    expect(idsIn(readFileSync(out, 'utf8'))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  it('a --cursor the user gave that is refused stays their input: exit 2, one request', async () => {
    const feed = await feedServer([4, 3, 2, 1], refusal);
    feed.state.acceptFrom = 5;
    const r = await runMain(['--base-url', feed.server.url, 'feed', '--page-size', '2', '--cursor', 'g1-2'], {
      env: KEY,
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`error: the API rejected the request: ${said}`);
    expect(feed.cursors()).toEqual(['g1-2']);
  });
});

describe('feed pages without meta or data_sources', () => {
  for (const strip of [['meta'], ['data_sources'], ['meta', 'data_sources']]) {
    it(`without ${strip.join(' and ')}: every page is read, in every format`, async () => {
      const feed = await feedServer([3, 2, 1], 'token400', strip);
      const jsonl = await runMain(['--base-url', feed.server.url, 'feed', '--page-size', '2', '-f', 'jsonl'], {
        env: KEY,
      });
      expect(jsonl.stderr).toBe('');
      expect(jsonl.code).toBe(0);
      expect(idsIn(jsonl.stdout)).toEqual([3, 2, 1]);
      const json = await runMain(['--base-url', feed.server.url, 'feed', '-f', 'json'], { env: KEY });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([3, 2, 1].map(record));
    });
  }

  it('the summary line falls back to what was asked for: the sources and the window', async () => {
    const feed = await feedServer([2, 1], 'token400', ['meta', 'data_sources']);
    const r = await runMain(
      ['--base-url', feed.server.url, 'feed', '--sources', 'us_cpsc,uk_opss', '--hours', '6', '-f', 'table'],
      { env: KEY, columns: 200 },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('recall 2');
    // feedBody's rate_limit block: 49,000 left of 50,000.
    expect(r.stderr).toBe(
      '2 of 2 recalls · from us_cpsc, uk_opss · published in the last 6 h · monthly quota left: 49,000 of 50,000\n',
    );
    expect(feed.cursors()).toEqual([null]);
  });
});

describe("a 404 under a custom feed's path", () => {
  it("the API's envelope (not_found, api-notes: an unknown name) is the API saying the feed does not exist: exit 4", async () => {
    const server = await handlerServer((_req, res) => {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: { error: 'not_found', message: "No custom feed 'shein'" } }));
    });
    const r = await runMain(['--base-url', server.url, 'feed', '--custom', 'shein'], { env: KEY });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe("error: No custom feed 'shein'");
    expect(server.requests.map((q) => new URL(q.url, 'http://x').pathname)).toEqual(['/v1/recalls/feed/shein']);
  });

  it('FastAPI\'s bare {"detail": "Not Found"} is no such route: a wrong --base-url (exit 7)', async () => {
    const server = await handlerServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
    });
    const r = await runMain(['--base-url', `${server.url}/v1`, 'feed', '--custom', 'shein'], { env: KEY });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: HTTP 404 for ${server.url}/v1/v1/recalls/feed/shein, and not from the API: no API answers at this address`,
    );
  });

  it('a 404 web page there is still a wrong address (exit 7)', async () => {
    const server = await handlerServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>');
    });
    const r = await runMain(['--base-url', server.url, 'feed', '--custom', 'shein'], { env: KEY });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: HTTP 404 for ${server.url}/v1/recalls/feed/shein, and not from the API: no API answers at this address`,
    );
  });
});
