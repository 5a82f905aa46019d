// `recall-feed mcp` over stdio when the client closes stdin: the answers still being made are written first, and
// whatever still asks the API (a slow one's retries) is aborted, so the server ends at once, exit 0.
import net from 'node:net';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Context } from '../../src/runtime/context.js';
import { sampleRecords, storeRun } from '../helpers/archive.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const INIT = line({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const INITIALIZED = line({ jsonrpc: '2.0', method: 'notifications/initialized' });
const LIST_CASES = line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_cases', arguments: {} } });

/** An archive of one successful sync, no cases: what list_cases reads. */
async function archive(): Promise<string> {
  const db = path.join(tempDir('rf-mcp-hang-'), 'archive.db');
  await storeRun(db, sampleRecords(3));
  return db;
}

/** A loopback server that accepts connections and never answers: how many it took, how many are still open. */
async function silentApi(): Promise<{ url: string; accepted(): number; open(): number }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    // Read and ignored: a paused socket would never see the client's end.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  deferCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, accepted: () => accepted, open: () => sockets.size };
}

/** `recall-feed <args>` in process with a stdin the test writes and ends when it likes (runMain's ends at once). */
function liveRun(args: string[], env: Record<string, string>) {
  const stdin = new PassThrough();
  const text = { stdout: '', stderr: '' };
  const into = (name: keyof typeof text) =>
    new Writable({
      write(chunk: Buffer, _enc, callback) {
        text[name] += chunk.toString('utf8');
        callback();
      },
    });
  const clock = fakeClock();
  const ctx: Context = {
    stdout: into('stdout'),
    stderr: into('stderr'),
    stdin,
    env: {
      TERM: 'dumb',
      RECALL_FEED_CONFIG_DIR: tempDir('rf-config-'),
      RECALL_FEED_CACHE_DIR: tempDir('rf-cache-'),
      ...env,
    },
    now: () => clock.now(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    signal: new AbortController().signal,
  };
  const code = main(args, ctx);
  return { stdin, code, text };
}

/** The JSON-RPC messages written on stdout, in order. */
const messages = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, any> });

describe('mcp over stdio: the client hangs up', () => {
  it('while the API is asked and never answers: the request is aborted, exit 0 at once, no warning', async () => {
    const api = await silentApi();
    const db = await archive();
    const run = liveRun(['--base-url', api.url, 'mcp', '--db', db], { RECALL_FEED_API_KEY: ALL_KEY });
    run.stdin.write(INIT + INITIALIZED + LIST_CASES);
    // list_cases asks the API for the key's sources: the connection that never answers is taken.
    await until('the sources asked of the API', () => api.accepted() >= 1, 5000);
    // The client gives up on the call and hangs up, the request to the API still out (retried for minutes before).
    run.stdin.end(line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }));
    const started = Date.now();
    let late: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      run.code,
      new Promise((_, reject) => {
        late = setTimeout(() => reject(new Error(`still serving 2 s after stdin closed: ${run.text.stderr}`)), 2000);
      }),
    ]).finally(() => clearTimeout(late));
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(messages(run.text.stdout).map((m) => m.id)).toEqual([1]);
    expect(run.text.stderr).toBe('');
    // Nothing is left asking: the API's connection is closed.
    await until('the connection to the API closed', () => api.open() === 0, 1000);
    expect(api.accepted()).toBe(1);
  });

  it('right after a tool call (a script piping three lines): the answer is written before the server ends', async () => {
    const sandbox = await sandboxFor({});
    const db = await archive();
    const r = await runMainAgainst(sandbox, ['mcp', '--db', db], { stdin: INIT + INITIALIZED + LIST_CASES });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [init, call, ...rest] = messages(r.stdout);
    expect([init?.id, call?.id, rest]).toEqual([1, 2, []]);
    const answer = call?.result;
    expect(answer?.isError ?? false).toBe(false);
    expect(answer?.structuredContent).toMatchObject({ cases: [], total: 0, overdue: 0 });
    // The answer waited for the sources the key may use, asked of the sandbox: they were checked.
    expect(answer?.structuredContent.freshness.problems.join('\n')).not.toContain('not checked');
    expect(sandbox.requests().map((e) => e.path)).toEqual(['/v1/recalls/sources']);
  });
});
