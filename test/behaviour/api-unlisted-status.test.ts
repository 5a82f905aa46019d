// An HTTP status the client does not list is never exit 1 (a bug): a request too large for the server (431, 414, 413:
// a long --cursor or --sources list) is the user's to shorten, exit 2 with a hint naming it; a 408 is transient (exit 6);
// any other 4xx is no status the API answers with, so whatever answered is not the API (exit 7, check --base-url).
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY } from '../helpers/sandbox.js';
import { errorBody, scriptedServer } from '../helpers/scripted-server.js';

const BASE_URL_HINT =
  "hint: check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io\n";

describe('a request too large for the server', () => {
  it('a 20,000-character --cursor: exit 2, naming the cursor and what to do', async () => {
    const r = await runMain(['feed', '--sandbox', '--cursor', 'A'.repeat(20_000), '-f', 'jsonl']);
    expect(r.stderr).toBe(
      'error: the API rejected the request: HTTP 431: the request is too large for the server (its cursor is 20000 characters long)\n' +
        'hint: give --cursor a next_cursor the API sent, or leave it out to start from the first page\n',
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('3,000 --sources: exit 2, naming data_sources and asking for fewer', async () => {
    const sources = Array.from({ length: 3000 }, (_, i) => `src_${i}`).join(',');
    const r = await runMain(['feed', '--sandbox', '--sources', sources, '-f', 'jsonl']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^error: the API rejected the request: HTTP 431: the request is too large for the server \(its data_sources is \d+ characters long\)\nhint: ask for fewer --sources in one run\n$/,
    );
  });

  it('a 414 or 413 page from a proxy, with no long parameter: exit 2, the request as a whole', async () => {
    for (const status of [414, 413]) {
      const server = await scriptedServer([{ status, body: '<html><body>Too large</body></html>' }]);
      const r = await runMain(['--base-url', server.url, 'feed', '-f', 'jsonl', '--retries', '0'], {
        env: { RECALL_FEED_API_KEY: ALL_KEY },
      });
      expect(r.stderr).toBe(
        `error: the API rejected the request: HTTP ${status}: the request is too large for the server\n` +
          'hint: shorten what the request carries: --cursor, the --sources list or the API key\n',
      );
      expect(r.code).toBe(2);
      await server.close();
    }
  });
});

describe('other statuses the API does not answer with', () => {
  it('418, 405 and 451, with any body: exit 7, one line and the --base-url hint', async () => {
    for (const [status, body] of [
      [418, 'teapot'],
      [405, ''],
      [451, '<html>blocked</html>'],
    ] as const) {
      const server = await scriptedServer([{ status, body }]);
      const r = await runMain(['--base-url', server.url, 'feed', '-f', 'jsonl', '--retries', '0'], {
        env: { RECALL_FEED_API_KEY: ALL_KEY },
      });
      expect(r.stderr, String(status)).toBe(`error: HTTP ${status} from the API\n${BASE_URL_HINT}`);
      expect(r.code).toBe(7);
      await server.close();
    }
  });

  it('a 405 in the API envelope says its own message, exit 7', async () => {
    const server = await scriptedServer([
      { status: 405, body: errorBody('method_not_allowed', 'Only GET is allowed') },
    ]);
    const r = await runMain(['--base-url', server.url, 'feed', '-f', 'jsonl', '--retries', '0'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^error: Only GET is allowed\nhint: /);
  });

  it('a 408 is transient: retried, then exit 6 as an unavailable API', async () => {
    const server = await scriptedServer([
      { status: 408, body: '' },
      { status: 408, body: '' },
    ]);
    const r = await runMain(['--base-url', server.url, 'feed', '-f', 'jsonl', '--retries', '1'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/^error: the API is unavailable: HTTP 408 from the API$/m);
    expect(server.requests).toHaveLength(2);
  });
});
