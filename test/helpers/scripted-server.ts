// A loopback HTTP server that answers from a script, one entry per request; a test fails if the script is not used up exactly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deferCleanup } from './cleanup.js';

export interface Scripted {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ScriptedServer {
  url: string;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  /** Throws unless every scripted answer was asked for and nothing was asked beyond them (like gh's httpmock Verify). */
  verify(): void;
  /** Closes the server, then verifies. Runs by itself when the test ends. */
  close(): Promise<void>;
}

export async function scriptedServer(script: Scripted[]): Promise<ScriptedServer> {
  const queue = [...script];
  const requests: ScriptedServer['requests'] = [];
  const unexpected: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const next = queue.shift();
    if (!next) {
      unexpected.push(`${req.method} ${req.url}`);
      res.writeHead(599, { 'content-type': 'text/plain' }).end('script ran dry');
      return;
    }
    const text = typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    res.writeHead(next.status ?? 200, { 'content-type': 'application/json', ...next.headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const verify = () => {
    const problems: string[] = [];
    if (queue.length > 0) {
      problems.push(
        `${queue.length} scripted answer(s) never asked for, first: ${queue[0]!.status ?? 200} ${JSON.stringify(queue[0]!.body).slice(0, 120)}`,
      );
    }
    if (unexpected.length > 0) problems.push(`request(s) after the script ran dry: ${unexpected.join(', ')}`);
    if (problems.length > 0) throw new Error(`scripted server: ${problems.join('; ')}`);
  };
  let closing: Promise<void> | undefined;
  const close = async () => {
    const first = closing === undefined;
    closing ??= new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    await closing;
    // Once: a test that closes it itself is not failed a second time by the automatic close.
    if (first) verify();
  };
  deferCleanup(close);
  return { url: `http://127.0.0.1:${port}`, requests, verify, close };
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
