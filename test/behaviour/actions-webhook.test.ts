// --webhook in process against a receiver that fails a third of the time and sometimes stalls.
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Answers 500 to every third request, leaves every seventh hanging, 200 otherwise; logs which ids got a 200. */
async function flakyReceiver() {
  let n = 0;
  const ok: string[] = [];
  const stalled: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req
      .on('data', (d) => (body += d))
      .on('end', () => {
        n++;
        if (n % 7 === 0) {
          stalled.push(res);
          return;
        }
        if (n % 3 === 0) {
          res.statusCode = 500;
          res.end('oops');
          return;
        }
        ok.push(String(JSON.parse(body).id));
        res.end('ok');
      });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const close = async () => {
    for (const res of stalled) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  deferCleanup(close);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T000/B000/secret-token`,
    ok,
    requests: () => n,
  };
}

describe('--webhook', () => {
  it('every new recall arrives, none twice after a 2xx, and the watch survives the receiver', async () => {
    sandbox = await sandboxFor({ seed: 12, recordCount: 100 });
    const hook = await flakyReceiver();
    const state = path.join(tempDir(), 'state.json');
    // The injected clock stands in for the interval and the retry pauses: each pause is a moment between two
    // polls, where the test adds the next round of recalls once the last one is delivered, and stops after three.
    const live = sandbox;
    const ids: string[] = [];
    let rounds = 0;
    let sleeps = 0;
    const stop = new AbortController();
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps > 500) throw new Error(`the new recalls were never delivered\nok: ${hook.ok}\nids: ${ids}`);
      if (!ids.every((id) => hook.ok.includes(id))) return;
      if (rounds === 3) return stop.abort(new InterruptedError('SIGINT'));
      rounds++;
      ids.push(...live.addRecords(4).map((r) => String(r.id)));
    });
    const r = await runMainAgainst(
      live,
      [
        '--timeout',
        '1',
        'feed',
        '--watch',
        '--interval',
        '1',
        '--skip-existing',
        '--state',
        state,
        '--webhook',
        hook.url,
        '-f',
        'jsonl',
        '-v',
      ],
      { clock, signal: stop.signal },
    );
    const err = r.stderr;
    expect(r.code).toBe(130);
    expect(ids).toHaveLength(12);
    expect([...hook.ok].sort()).toEqual([...ids].sort());
    expect(hook.requests()).toBeGreaterThan(ids.length);
    expect(err).toMatch(
      /webhook failed for recall \d+: http:\/\/127\.0\.0\.1:\d+\/… answered HTTP 500; it stays pending/,
    );
    expect(err).not.toContain('secret-token');
    expect(err).not.toContain('T000');
  });

  it('a plain-http webhook that is not this machine is refused before any request', async () => {
    sandbox = await sandboxFor({ seed: 12, recordCount: 10 });
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--watch',
      '--webhook',
      'http://hooks.example.com/services/secret-token',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refusing to send recalls to a plain http webhook on hooks.example.com');
    expect(r.stderr).not.toContain('secret-token');
    expect(sandbox.requests()).toEqual([]);
  });

  it('config set webhook stores it masked; a bare --webhook uses it', async () => {
    sandbox = await sandboxFor({ seed: 12, recordCount: 10 });
    const config = tempDir();
    const env = { RECALL_FEED_CONFIG_DIR: config };
    const set = await runMainAgainst(sandbox, ['config', 'set', 'webhook'], {
      env,
      stdin: 'https://hooks.example.com/services/secret-token\n',
    });
    expect(set.code).toBe(0);
    const list = await runMainAgainst(sandbox, ['config', 'list'], { env });
    expect(list.stdout).toContain('webhook=https://hooks.example.com/…');
    expect(list.stdout).not.toContain('secret-token');
    const bare = await runMainAgainst(sandbox, ['feed', '--webhook'], { env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--webhook acts on new recalls');
  });
});

describe('--webhook refused', () => {
  it('a 4xx other than 408 and 429 is posted once per run, and the recall stays pending for the next run', async () => {
    sandbox = await sandboxFor({ seed: 12, recordCount: 2 });
    let posts = 0;
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        posts++;
        res.statusCode = 404;
        res.end('no such channel');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    deferCleanup(() => new Promise((r) => server.close(r)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret-token`;
    const state = path.join(tempDir(), 'state.json');
    const run = () =>
      runMainAgainst(sandbox!, ['feed', '--state', state, '--webhook', url, '-f', 'jsonl'], { clock: fakeClock() });
    const first = await run();
    expect(posts).toBe(2);
    expect(first.stderr.match(/answered HTTP 404; it stays pending/g)).toHaveLength(2);
    expect(first.sleeps).toEqual([]);
    const second = await run();
    expect(posts).toBe(4);
    expect(second.stderr.match(/answered HTTP 404; it stays pending/g)).toHaveLength(2);
    expect(second.stderr).not.toContain('secret-token');
  });
});
