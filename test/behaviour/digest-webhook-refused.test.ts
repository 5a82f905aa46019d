// `digest --webhook` against a receiver that answers an error: a 4xx other than 408 and 429 is a refusal, posted once; the rest are tried three times. Either way exit 11.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { handlerServer } from '../helpers/handler-server.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';

/** A webhook receiver that answers every post with `status`, once its body has arrived. */
async function answering(status: number) {
  const server = await handlerServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.end('no');
    });
  });
  return { ...server, posts: () => server.requests.filter((r) => r.url === '/hook/secret-token').length };
}

let sandbox: Sandbox;
let archive: TestArchive;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 20, seed: 7 });
  archive = await testArchive('sqlite');
  expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
});
afterAll(async () => {
  await sandbox.close();
});

describe('digest --webhook: what is retried', () => {
  const digest = async (status: number) => {
    const hook = await answering(status);
    const clock = fakeClock();
    const r = await runMainAgainst(
      sandbox,
      ['digest', '--db', archive.db, '--webhook', `${hook.url}/hook/secret-token`, '--webhook-format', 'slack'],
      { clock },
    );
    await hook.close();
    return { r, posts: hook.posts(), sleeps: clock.sleeps };
  };

  it.each([400, 401, 403, 404, 410, 413, 422])(
    'HTTP %i is a refusal: posted once, not retried, exit 11',
    async (status) => {
      const { r, posts, sleeps } = await digest(status);
      expect(posts).toBe(1);
      expect(sleeps).toEqual([]);
      expect(r.code).toBe(11);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toContain('trying again');
      expect(r.stderr).toContain(`the digest post to http://127.0.0.1:`);
      expect(r.stderr).toContain(`answered HTTP ${status}`);
      expect(r.stderr).not.toContain('secret-token');
    },
  );

  it.each([408, 429, 500, 503])('HTTP %i is tried three times, then exit 11', async (status) => {
    const { r, posts, sleeps } = await digest(status);
    expect(posts).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(r.code).toBe(11);
    expect(r.stderr.match(/trying again/g)).toHaveLength(2);
    expect(r.stderr).toContain(`answered HTTP ${status}`);
  });
});
