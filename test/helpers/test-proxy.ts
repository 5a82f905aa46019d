// A loopback forward proxy for tests: records what it is asked, forwards absolute-form requests to a loopback
// origin and tunnels CONNECT to a loopback port, whatever host the client named (no DNS needed).
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { deferCleanup } from './cleanup.js';

/** base64 of "user:p@ss", the decoded credentials of the proxy tests' addresses (printf %s 'user:p@ss' | base64). */
export const USER_P_AT_SS = 'Basic dXNlcjpwQHNz';

/** The arguments of a three-record JSONL feed from `baseUrl` with no retries; `more` are global flags. */
export const feedThree = (baseUrl: string, ...more: string[]) => [
  '--base-url',
  baseUrl,
  '--retries',
  '0',
  ...more,
  'feed',
  '--max',
  '3',
  '-f',
  'jsonl',
];

export interface ProxiedRequest {
  method: string;
  /** The request target as sent: `http://host/path?query` (absolute form) or `host:port` (CONNECT). */
  target: string;
  host: string | undefined;
  proxyAuthorization: string | undefined;
}

export interface TestProxyOptions {
  /** The loopback origin absolute-form requests are sent to (e.g. a sandbox's url), whatever host they name. */
  forwardTo?: string;
  /** The loopback port every CONNECT is tunnelled to (e.g. a TLS server's), whatever host it names. */
  tunnelTo?: number;
  /** Answer CONNECT with this status instead of tunnelling (407 asks for credentials). */
  connectStatus?: number;
  /** Answer absolute-form requests with this status instead of forwarding them. */
  requestStatus?: number;
  /** Answer 407 to any request or CONNECT whose Proxy-Authorization is not exactly this. */
  requireAuth?: string;
  /** Speak TLS to clients (an https:// proxy) with this key and certificate, made for `localhost`. */
  tls?: { key: string; cert: string };
}

export interface TestProxy {
  /** `http://127.0.0.1:PORT`, or `https://localhost:PORT` with `tls` (the name its certificate is for). */
  url: string;
  port: number;
  /** Every request the proxy got, in order. */
  requests: ProxiedRequest[];
  /** Runs by itself when the test (or file) that started it ends. */
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive']);

/** Sends `req` to the loopback `origin` and pipes the answer back into `res`; `track` sees the upstream socket. */
export function forwardRequest(
  origin: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  track: (socket: Socket) => void = () => {},
): void {
  const from = new URL(req.url ?? '/', 'http://placeholder');
  const to = new URL(origin);
  const endToEnd = (all: http.IncomingHttpHeaders) =>
    Object.fromEntries(Object.entries(all).filter(([name]) => !HOP_BY_HOP.has(name)));
  const headers = endToEnd(req.headers);
  const upstream = http.request(
    {
      host: to.hostname,
      port: to.port,
      method: req.method,
      path: `${from.pathname}${from.search}`,
      headers,
      agent: false,
    },
    (answer) => {
      // Not the origin's `connection: close` (one connection per request to it): the client's stays open.
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(res);
    },
  );
  upstream.on('socket', track);
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  req.pipe(upstream);
}

export async function testProxy(opts: TestProxyOptions = {}): Promise<TestProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
  };
  const record = (req: http.IncomingMessage) =>
    requests.push({
      method: req.method ?? '',
      target: req.url ?? '',
      host: req.headers.host,
      proxyAuthorization: req.headers['proxy-authorization'],
    });

  const refusal = (req: http.IncomingMessage) =>
    opts.requireAuth !== undefined && req.headers['proxy-authorization'] !== opts.requireAuth ? 407 : undefined;

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    record(req);
    // A forward proxy is asked for whole addresses; anything else is not for it.
    if (!/^http:\/\//i.test(req.url ?? '')) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('not a proxy request\n');
      return;
    }
    const refused = refusal(req);
    if (refused !== undefined || opts.requestStatus !== undefined || opts.forwardTo === undefined) {
      const status = refused ?? opts.requestStatus ?? 502;
      const auth = status === 407 ? { 'proxy-authenticate': 'Basic realm="test proxy"' } : undefined;
      res.writeHead(status, { 'content-type': 'text/html', ...auth }).end('<html>refused by the test proxy</html>');
      return;
    }
    forwardRequest(opts.forwardTo, req, res, track);
  };
  const server = opts.tls ? https.createServer(opts.tls, onRequest) : http.createServer(onRequest);
  server.on('connection', track);
  // A client that drops the handshake is the client's business; the test asserts on the client side.
  server.on('tlsClientError', () => {});
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    record(req);
    track(client);
    const status = refusal(req) ?? opts.connectStatus ?? (opts.tunnelTo === undefined ? 502 : 200);
    if (status !== 200) {
      const auth = status === 407 ? 'Proxy-Authenticate: Basic realm="test proxy"\r\n' : '';
      client.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Refused'}\r\n${auth}Content-Length: 0\r\n\r\n`);
      return;
    }
    const upstream = net.connect(opts.tunnelTo!, '127.0.0.1');
    track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => client.destroy());
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
    }));
  deferCleanup(close);
  const url = opts.tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  return { url, port, requests, close };
}

/** A loopback port that accepts connections and never says a word: a proxy that hangs. */
export async function silentServer(): Promise<{ port: number; accepted: () => number; open: () => number }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = net.createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => {});
    // Read (and drop) what the client sends: a socket never read never sees the client close it.
    s.resume();
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  deferCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    /** Connections the client has not closed yet. */
    open: () => sockets.size,
  };
}

/** A loopback port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
