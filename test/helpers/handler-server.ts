// A loopback HTTP or HTTPS server answered by a test's own handler: streamed, compressed, endless or odd answers.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { deferCleanup } from './cleanup.js';

export interface HandlerServer {
  url: string;
  /** Every request that reached the handler, in order. */
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  /** TCP connections accepted, whether or not a request came of them (a TLS handshake that failed). */
  connections(): number;
  /** Runs by itself when the test (or file) that started it ends. */
  close(): Promise<void>;
}

export async function handlerServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  tls?: { key: string; cert: string },
): Promise<HandlerServer> {
  const requests: HandlerServer['requests'] = [];
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  };
  const server = tls ? https.createServer(tls, listener) : http.createServer(listener);
  let connections = 0;
  server.on('connection', () => connections++);
  // A failed handshake is the client's doing; the test asserts on the client side.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
  deferCleanup(close);
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, requests, connections: () => connections, close };
}

/** Writes chunks until the client goes away: a body without end. */
export function endlessBody(res: http.ServerResponse, headers: Record<string, string> = {}): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.write('{"success":true,"data":[{"id":1,"data_source":"');
  const more = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  more();
}

/** A request as a receiving server saw it, its body read whole as UTF-8 text. */
export interface ReceivedRequest {
  method: string;
  url: string;
  body: string;
}

/**
 * A webhook or ping receiver: keeps every request with its whole body (`received`, in order) and answers each with
 * 200 and `reply` once the body has arrived.
 */
export async function receivingServer(reply = ''): Promise<HandlerServer & { received: ReceivedRequest[] }> {
  const received: ReceivedRequest[] = [];
  const server = await bodyServer((body, req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', body });
    res.end(reply);
  });
  return { ...server, received };
}

/** A handlerServer whose handler is called with each request's whole body (UTF-8), once it has arrived. */
export function bodyServer(
  onBody: (body: string, req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<HandlerServer> {
  return handlerServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => onBody(body, req, res));
  });
}
