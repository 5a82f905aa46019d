// Bytes in an answer that are not UTF-8 (a stray 0xff, a latin-1 body) still flow, as U+FFFD, but the run says so
// once on stderr: jsonl is otherwise exactly what the API sent. A U+FFFD the API sent itself, as UTF-8, says nothing.
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, lines } from '../helpers/sandbox.js';
import { handlerServer } from '../helpers/handler-server.js';
import { feedBody } from '../helpers/scripted-server.js';

const WARNING = "warning: the API's answer held bytes that are not UTF-8; each was replaced with U+FFFD";

const record = (id: number, name: string) => ({
  id,
  data_source: 'us_cpsc',
  published_at: '2026-03-10T00:00:00',
  product_name: name,
});

/** A page's bytes with each `XX` in a product name turned into 0xff 0xc3 (neither starts valid UTF-8 here). */
function withBadBytes(ids: number[], more: { hasMore?: boolean; next?: string } = {}): Buffer {
  const bytes = Buffer.from(
    JSON.stringify(
      feedBody(
        ids.map((id) => record(id, `Kettle XX ${id}`)),
        more,
      ),
    ),
  );
  for (let at = bytes.indexOf('XX'); at >= 0; at = bytes.indexOf('XX', at)) {
    bytes[at] = 0xff;
    bytes[at + 1] = 0xc3;
  }
  return bytes;
}

/** Answers the n-th request with the n-th body, as bytes (the scripted server sends text). */
function bytesServer(answers: { body: Buffer; headers?: Record<string, string> }[]) {
  let n = 0;
  return handlerServer((_req, res) => {
    const a = answers[n++];
    if (!a) return void res.writeHead(599).end();
    res.writeHead(200, { 'content-type': 'application/json', ...a.headers }).end(a.body);
  });
}

const run = (url: string, args: string[]) =>
  runMain(['--base-url', url, ...args], { env: { RECALL_FEED_API_KEY: ALL_KEY } });
const warnings = (stderr: string) => lines(stderr).filter((l) => l.startsWith('warning:'));

describe('bytes that are not UTF-8', () => {
  it('feed -f jsonl: the records flow with U+FFFD, and one warning for the whole run', async () => {
    const srv = await bytesServer([
      { body: withBadBytes([1, 2], { hasMore: true, next: 'c2' }) },
      { body: withBadBytes([3]) },
    ]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout).map((x) => x.product_name)).toEqual([
      'Kettle \uFFFD\uFFFD 1',
      'Kettle \uFFFD\uFFFD 2',
      'Kettle \uFFFD\uFFFD 3',
    ]);
    expect(warnings(r.stderr)).toEqual([WARNING]);
  });

  it('a latin-1 body (charset=iso-8859-1): read as UTF-8 as the API is documented to send, and said', async () => {
    const body = Buffer.from(JSON.stringify(feedBody([record(1, 'Crème brûlée')])), 'latin1');
    const srv = await bytesServer([{ body, headers: { 'content-type': 'application/json; charset=iso-8859-1' } }]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)[0]!.product_name).toBe('Cr\uFFFDme br\uFFFDl\uFFFDe');
    expect(warnings(r.stderr)).toEqual([WARNING]);
  });

  it('--quiet still warns: it silences progress, not problems', async () => {
    const srv = await bytesServer([{ body: withBadBytes([1]) }]);
    const r = await run(srv.url, ['--quiet', 'feed', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([WARNING]);
  });

  it('a U+FFFD the API sent as valid UTF-8 is its own text: no warning', async () => {
    const srv = await bytesServer([{ body: Buffer.from(JSON.stringify(feedBody([record(1, 'Kettle \uFFFD')]))) }]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)[0]!.product_name).toBe('Kettle \uFFFD');
    expect(r.stderr).toBe('');
  });
});
