// `mcp --http`: Streamable HTTP at /mcp on node:http, each request guarded (http-guard.ts), one MCP server per session.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type GuardOptions, MCP_PATH, refusal } from './http-guard.js';

/**
 * Sessions held at once: each is a server and its tools; a client that never closes must not exhaust memory. A
 * client that goes without a DELETE (most do, an editor restarted) leaves its session behind: a new one then takes
 * the place of the one unused longest with no request open (its client, if it comes back, is told to initialize
 * again, as the protocol has it).
 */
const MAX_SESSIONS = 64;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** Requests (and event streams) of the session not yet answered: a session so busy is never given up. */
  open: number;
}

export interface HttpMcp {
  /** http://host:port/mcp as bound (port 0 becomes the port the system chose). */
  url: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
  });
  res.end(body);
}

/** Serves until `close()`; `makeServer` builds the server of each new session. */
export async function startHttp(
  listen: { host: string; port: number },
  guard: GuardOptions,
  makeServer: () => McpServer,
  onError: (err: Error) => void,
): Promise<HttpMcp> {
  // In order of last use, the least recent first (a session used is moved to the end).
  const sessions = new Map<string, Session>();
  /** Initialize requests being answered: sessions about to be. */
  let starting = 0;

  /** Gives up the session unused longest with nothing open; false when every one is busy. */
  async function makeRoom(): Promise<boolean> {
    for (const [sid, session] of sessions) {
      if (session.open > 0) continue;
      sessions.delete(sid);
      await session.server.close();
      return true;
    }
    return false;
  }

  async function serveIn(sid: string, session: Session, req: IncomingMessage, res: ServerResponse): Promise<void> {
    sessions.delete(sid);
    sessions.set(sid, session);
    session.open++;
    res.once('close', () => {
      session.open--;
    });
    await session.transport.handleRequest(req, res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refusal(req, guard);
    if (refused) return refuse(res, refused.status, refused.message);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const known = sessions.get(id);
      if (!known) return refuse(res, 404, 'unknown or closed session: initialize again');
      return serveIn(id, known, req, res);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'initialize with a POST first');
    // Initializations still being answered count too: 150 at once all passed a check of the sessions alone.
    if (sessions.size + starting >= MAX_SESSIONS && !(await makeRoom()))
      return refuse(res, 503, 'too many sessions, each busy: try again shortly');
    starting++;
    try {
      await begin(req, res);
    } finally {
      starting--;
    }
  }

  async function begin(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const server = makeServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server, open: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Not an initialize request: no session began, nothing to keep.
    if (transport.sessionId === undefined) await server.close();
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      onError(err as Error);
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(listen.port, listen.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { address, port } = http.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    async close() {
      for (const { server } of [...sessions.values()]) await server.close();
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
