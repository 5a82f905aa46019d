// The transport on its own: which requests go once more on a fresh connection, and which never do.
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionError, InvalidParamsError } from '../../src/api/api-errors.js';
import { RecallFeedClient } from '../../src/api/client.js';
import { HttpAgent } from '../../src/api/http-agent.js';
import { send } from '../../src/api/transport.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { handlerServer } from '../helpers/handler-server.js';

/** A server that answers the first request on each connection and closes the connection on the second, unanswered. */
async function closesSecondRequest() {
  const served = new WeakMap<Socket, number>();
  const bodies: string[] = [];
  const server = await handlerServer((req, res) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      bodies.push(body);
      if (n === 2) req.socket.destroy();
      else res.end(`answer ${bodies.length}`);
    });
  });
  return { ...server, bodies };
}

function agent(): HttpAgent {
  const a = new HttpAgent({ timeoutMs: 5000 });
  deferCleanup(() => a.close());
  return a;
}

/** undici takes a connection back into its pool a tick after the body ends: without this, the next request opens another. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const opts = (a: HttpAgent, more: object = {}) => ({ agent: a, headers: {}, timeoutMs: 5000, maxBytes: 1000, ...more });

describe('a kept-alive connection found closed', () => {
  it('a GET goes once more on a fresh connection, and gets its answer', async () => {
    const server = await closesSecondRequest();
    const a = agent();
    const url = new URL(`${server.url}/v1`);
    expect((await send(url, opts(a))).body).toBe('answer 1');
    await settle();
    // Sent on the kept-alive connection, which closes unanswered; then again on a new one.
    expect((await send(url, opts(a))).body).toBe('answer 3');
    expect(server.requests).toHaveLength(3);
    expect(server.connections()).toBe(2);
  });

  it('a POST is never sent twice: it may have been acted on', async () => {
    const server = await closesSecondRequest();
    const a = agent();
    const url = new URL(`${server.url}/hook`);
    const post = (body: string) => send(url, opts(a, { method: 'POST', body, discardBody: true }));
    expect((await post('first')).status).toBe(200);
    await settle();
    const err = await post('second').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expect(server.bodies).toEqual(['first', 'second']);
  });
});

describe('the base URL', () => {
  it('with a user or password in it is refused by the library, before any request', () => {
    for (const baseUrl of ['https://user:pw@api.example.test', 'https://user@api.example.test']) {
      expect(() => new RecallFeedClient({ apiKey: 'k', baseUrl })).toThrow(
        new InvalidParamsError('the base URL holds a user name or password, which the client never sends'),
      );
    }
  });
});
