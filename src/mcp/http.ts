// `mcp --http`: Streamable HTTP at /mcp on node:http, each request guarded (http-guard.ts), one MCP server per session.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type GuardOptions, MCP_PATH, refusal } from './http-guard.js';

/** Sessions held at once: each is a server and its tools; a client that never closes must not exhaust memory. */
const MAX_SESSIONS = 64;

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
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refusal(req, guard);
    if (refused) return refuse(res, refused.status, refused.message);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const known = sessions.get(id);
      if (!known) return refuse(res, 404, 'unknown or closed session: initialize again');
      return known.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'initialize with a POST first');
    if (sessions.size >= MAX_SESSIONS) return refuse(res, 503, 'too many sessions: close one first');
    const server = makeServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server });
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
