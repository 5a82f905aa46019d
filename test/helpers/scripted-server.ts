// A loopback HTTP server that answers from a script, one entry per request, and fails the test if it runs dry.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Scripted {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ScriptedServer {
  url: string;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  remaining(): number;
  close(): Promise<void>;
}

export async function scriptedServer(script: Scripted[]): Promise<ScriptedServer> {
  const queue = [...script];
  const requests: ScriptedServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const next = queue.shift();
    if (!next) {
      res.writeHead(599, { 'content-type': 'text/plain' }).end('script ran dry');
      return;
    }
    const text = typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    res.writeHead(next.status ?? 200, { 'content-type': 'application/json', ...next.headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    remaining: () => queue.length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A feed page in the API's envelope. */
export function feedBody(data: unknown[], opts: { hasMore?: boolean; next?: string | null; remaining?: number } = {}) {
  return {
    success: true,
    data,
    pagination: {
      total_count: data.length,
      returned_count: data.length,
      limit: 50,
      has_more: opts.hasMore ?? false,
      next_cursor: opts.next ?? null,
    },
    meta: {
      filters_applied: { hours_ago: 24, data_sources: ['us_cpsc'], sort_by: 'published_at', sort_order: 'desc' },
      processing_time_ms: 3,
      timestamp: '2025-12-19T17:30:00.000000+00:00',
    },
    rate_limit: {
      limits: { per_minute: 60, per_hour: 1000, per_day: 10000 },
      remaining_credits: opts.remaining ?? 49_000,
      monthly_quota: 50_000,
      monthly_usage: 1000,
    },
    data_sources: { available: ['us_cpsc'], requested: ['us_cpsc'], filtered: ['us_cpsc'] },
  };
}

export function errorBody(error: string, message: string, details?: Record<string, unknown>) {
  return { detail: { error, message, details, help: `help for ${error}` } };
}
