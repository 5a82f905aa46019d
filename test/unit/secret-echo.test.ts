// A server that echoes the run's secrets (the key, a webhook token, a database password) in its error: never printed, never stored.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = 'dr_live_5ecr3tk3yv4lue0123456789abcdef';
const WEBHOOK = 'https://hooks.example.com/services/T0001/B0002/w3bh00kt0k3n';
const PG_PASSWORD = 'pgSup3rS3cret';

/** The secret parts a leak would show: each must be absent in full. */
const LEAKS = [KEY, KEY.slice(8, -4), 'w3bh00kt0k3n', PG_PASSWORD];

/** An error body whose message, help and details repeat the secrets back. */
function echoing(error: string, status: number) {
  return {
    status,
    body: {
      success: false,
      detail: {
        error,
        message: `refused X-API-Key ${KEY} (webhook ${WEBHOOK}, password ${PG_PASSWORD})`,
        help: `the key you sent was ${KEY}`,
        details: { api_key: KEY, echo: [WEBHOOK] },
      },
    },
  };
}

function expectNoLeak(text: string, leaks = LEAKS): void {
  for (const leak of leaks) expect(text).not.toContain(leak);
}

describe('secrets echoed by the server', () => {
  it('feed: a 401 echoing the key from the profile prints it masked', async () => {
    const server = await scriptedServer([echoing('invalid_api_key', 401)]);
    const dir = tempDir('rf-echo-');
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    const set = await runMain(['config', 'set', 'api-key'], { env, stdin: `${KEY}\n` });
    expect(set.code).toBe(0);
    const r = await runMain(['--base-url', server.url, 'feed', '-f', 'jsonl'], { env });
    expect(r.code).toBe(3);
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(r.stderr).toContain(`refused X-API-Key ${KEY.slice(0, 8)}…${KEY.slice(-4)}`);
    // Only the key is this run's secret; the rest of the echo is plain text to it.
    expectNoLeak(r.stderr, [KEY, KEY.slice(8, -4)]);
    expect(r.stdout).toBe('');
  });

  it('sync: a 400 echoing the key, a webhook URL and PGPASSWORD: not on stderr, not in sync_runs.error', async () => {
    const server = await scriptedServer([echoing('validation_error', 400)]);
    const db = path.join(tempDir('rf-echo-db-'), 'archive.db');
    const r = await runMain(['--base-url', server.url, 'sync', '--db', db], {
      env: { RECALL_FEED_API_KEY: KEY, RECALL_FEED_WEBHOOK: WEBHOOK, PGPASSWORD: PG_PASSWORD },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the API rejected the request: refused X-API-Key');
    expectNoLeak(r.stderr);
    const archive = new Database(db, { readonly: true });
    try {
      const runs = archive.prepare('SELECT outcome, error FROM sync_runs').all() as {
        outcome: string;
        error: string;
      }[];
      expect(runs).toHaveLength(1);
      expect(runs[0]!.outcome).toBe('failed');
      expect(runs[0]!.error).toContain('refused X-API-Key');
      expectNoLeak(runs[0]!.error);
    } finally {
      archive.close();
    }
  });

  it('a 500 echoing them, retried until the retries run out: the retry line and the error are masked', async () => {
    const server = await scriptedServer([echoing('internal_error', 500), echoing('internal_error', 500)]);
    const r = await runMain(['--base-url', server.url, '--retries', '1', 'feed', '-f', 'jsonl'], {
      env: { RECALL_FEED_API_KEY: KEY, RECALL_FEED_WEBHOOK: WEBHOOK, PGPASSWORD: PG_PASSWORD },
    });
    expect(r.stderr).toContain('retry 1');
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('the API is unavailable: refused X-API-Key');
    expectNoLeak(r.stderr);
  });
});
