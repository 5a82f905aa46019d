// The `--cursor` a failed export to stdout prints (and --no-paginate's next cursor) round-trips: run as printed, it
// sends the very cursor the API gave, a cursor starting with `-` included; one a terminal line would alter (control,
// bidi, line-break characters) is not printed altered: the hint says so and offers the run again, without a cursor.
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain } from '../helpers/in-process.js';
import { feedBody } from '../helpers/scripted-server.js';
import { printedCommand } from '../helpers/shell-words.js';

const KEY = { RECALL_FEED_API_KEY: 'dr_test_0123456789abcdef0123456789abcdef01234567' };

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  alert_title: `recall ${id}`,
  published_at: '2026-03-10T00:00:00',
  updated_at: '2026-03-10T00:00:00',
  created_in_db_at: '2026-03-10T01:00:00.000000+00:00',
});

/** Page 1 holds record 2 and points at `next`; page 2 (record 1) fails with a 503 while `failing` is set. */
async function twoPages(next: string) {
  const state = { failing: true };
  const server = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (cursor === null) return send(200, feedBody([record(2)], { hasMore: true, next }));
    if (state.failing) return send(503, { detail: { error: 'service_unavailable', message: 'down' } });
    return send(200, feedBody([record(1)]));
  });
  const cursors = () => server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('cursor'));
  return { server, state, cursors };
}

const ids = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: number }).id);

describe('the --cursor command printed after a failed export to stdout', () => {
  for (const cursor of ['-abc_DEF', "it's a cursor with spaces"]) {
    it(`run as printed, continues at the cursor the API sent (${JSON.stringify(cursor)})`, async () => {
      const feed = await twoPages(cursor);
      const failed = await runMain(['--base-url', feed.server.url, '--retries', '0', 'feed', '-f', 'jsonl'], {
        env: KEY,
      });
      expect(failed.code).toBe(6);
      expect(ids(failed.stdout)).toEqual([2]);
      expect(failed.stderr).toContain('hint: 1 record was written. To continue right after them, run:\n');
      const again = printedCommand(failed.stderr);
      expect(again).toEqual([
        '--base-url',
        feed.server.url,
        '--retries',
        '0',
        'feed',
        '-f',
        'jsonl',
        `--cursor=${cursor}`,
      ]);
      feed.state.failing = false;
      const resumed = await runMain(again, { env: KEY });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(ids(resumed.stdout)).toEqual([1]);
      expect(feed.cursors()).toEqual([null, cursor, cursor]);
    });
  }

  for (const cursor of ['abc\u001b[2Jdef', 'abc\u202edef', 'abc\ndef', 'abc\u200bdef']) {
    it(`never prints a cursor the line would alter (${JSON.stringify(cursor)}): says so and runs the window again`, async () => {
      const feed = await twoPages(cursor);
      const failed = await runMain(['--base-url', feed.server.url, '--retries', '0', 'feed', '-f', 'jsonl'], {
        env: KEY,
      });
      expect(failed.code).toBe(6);
      expect(ids(failed.stdout)).toEqual([2]);
      expect(failed.stderr).toContain(
        "hint: 1 record was written; the cursor after them holds characters a terminal cannot show, so it is not printed (with -o, a failure keeps it in the file's .partial for --resume). To fetch the window again, run:\n",
      );
      expect(failed.stderr).not.toContain('abc');
      expect(printedCommand(failed.stderr)).toEqual([
        '--base-url',
        feed.server.url,
        '--retries',
        '0',
        'feed',
        '-f',
        'jsonl',
      ]);
    });
  }
});

describe('--no-paginate: the next cursor on stderr', () => {
  it('a cursor starting with `-` is printed as it is, and --cursor=<it> continues there', async () => {
    const feed = await twoPages('-abc');
    feed.state.failing = false;
    const first = await runMain(['--base-url', feed.server.url, 'feed', '-f', 'jsonl', '--no-paginate'], { env: KEY });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('next cursor: -abc\n');
    const next = await runMain(['--base-url', feed.server.url, 'feed', '-f', 'jsonl', '--cursor=-abc'], { env: KEY });
    expect(next.code, next.stderr).toBe(0);
    expect(ids(next.stdout)).toEqual([1]);
    expect(feed.cursors()).toEqual([null, '-abc']);
  });

  it('one with a control character is not printed altered', async () => {
    const feed = await twoPages('abc\u0007def');
    const r = await runMain(['--base-url', feed.server.url, 'feed', '-f', 'jsonl', '--no-paginate'], { env: KEY });
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual([2]);
    expect(r.stderr).toBe(
      'next cursor not shown: it holds characters a terminal cannot show (control, bidi or line-break characters)\n',
    );
  });
});
