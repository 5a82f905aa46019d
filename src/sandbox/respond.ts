// Error bodies in the API's `{"detail":{...}}` envelope, timestamp formats, and writing answers (faults included).
import type { ServerResponse } from 'node:http';
import type { FaultKind } from './faults.js';

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function errorAnswer(
  status: number,
  error: string,
  message: string,
  help: string,
  details?: Record<string, unknown>,
): ApiAnswer {
  const detail: Record<string, unknown> = { error, message };
  if (details !== undefined) detail.details = details;
  detail.help = help;
  return { status, body: { detail } };
}

/** `2025-12-19T17:45:30Z`: UTC, no fractional seconds (the 429 reset_at form). */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `2025-12-19T17:30:00.123000+00:00`: what Python's datetime.isoformat() gives (meta.timestamp). */
export function isoMicros(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

export const RATE_HELP =
  "You've exceeded your rate limit. Wait for the limit to reset at reset_at, then retry with exponential backoff.";
export const QUOTA_HELP =
  'Your monthly quota is used up. It resets on the 1st of next month at 00:00 UTC; contact us for a higher quota.';

export function rateLimitAnswer(limitType: string, limit: number, resetAt: number): ApiAnswer {
  const unit = limitType;
  return errorAnswer(
    429,
    'rate_limit_exceeded',
    `Rate limit exceeded: ${limit} requests per ${unit}`,
    limitType === 'month' ? QUOTA_HELP : RATE_HELP,
    { limit_type: limitType, limit, reset_at: isoSeconds(resetAt) },
  );
}

export const internalError = (): ApiAnswer =>
  errorAnswer(
    500,
    'internal_error',
    'Internal server error',
    'This is a temporary problem on our side. Retry with exponential backoff; contact support if it persists.',
  );

export const serviceUnavailable = (): ApiAnswer =>
  errorAnswer(
    503,
    'service_unavailable',
    'The API is temporarily unavailable',
    'Retry later with exponential backoff.',
  );

export const notFound = (path: string): ApiAnswer =>
  errorAnswer(404, 'not_found', `No such endpoint: ${path}`, 'See the API documentation for the available endpoints.');

export const methodNotAllowed = (method: string, path: string): ApiAnswer => ({
  ...errorAnswer(
    405,
    'method_not_allowed',
    `Method ${method} is not allowed on ${path}`,
    'The API is read-only: use GET.',
  ),
  headers: { Allow: 'GET' },
});

const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** Timers and sockets the server must be able to cancel on close. */
export interface Pending {
  timers: Set<NodeJS.Timeout>;
}

function later(pending: Pending, ms: number, fn: () => void): NodeJS.Timeout {
  const t = setTimeout(() => {
    pending.timers.delete(t);
    fn();
  }, ms);
  pending.timers.add(t);
  return t;
}

function jsonHeaders(body: Buffer, extra: Record<string, string> | undefined): Record<string, string | number> {
  return { 'Content-Type': 'application/json', 'Content-Length': body.length, ...extra };
}

/** Writes an answer whole. */
export function writeAnswer(res: ServerResponse, a: ApiAnswer): void {
  const body = Buffer.from(JSON.stringify(a.body), 'utf8');
  res.writeHead(a.status, jsonHeaders(body, a.headers));
  res.end(body);
}

/** A split point inside the body: at least one byte sent, at least one held back. */
const splitAt = (n: number): number => Math.max(1, Math.min(n - 1, Math.floor(n / 2)));

/**
 * Writes an answer through a body-level fault (cut, truncate, slow, stall). The status-level faults
 * (500, 503, 502, 429) are answers of their own and go through writeAnswer / writeHtml502.
 */
export function writeWithFault(
  res: ServerResponse,
  a: ApiAnswer,
  kind: Extract<FaultKind, 'cut' | 'truncate' | 'slow' | 'stall'>,
  pending: Pending,
  delayMs: number,
): void {
  const body = Buffer.from(JSON.stringify(a.body), 'utf8');
  const cut = splitAt(body.length);
  switch (kind) {
    case 'truncate': {
      const short = body.subarray(0, cut);
      res.writeHead(a.status, jsonHeaders(short, a.headers));
      res.end(short);
      return;
    }
    case 'cut':
      res.writeHead(a.status, jsonHeaders(body, a.headers));
      res.write(body.subarray(0, cut), () => res.destroy());
      return;
    case 'slow': {
      const t = later(pending, delayMs, () => writeAnswer(res, a));
      res.once('close', () => {
        clearTimeout(t);
        pending.timers.delete(t);
      });
      return;
    }
    case 'stall': {
      res.writeHead(a.status, jsonHeaders(body, a.headers));
      res.flushHeaders();
      res.write(body.subarray(0, cut));
      const t = later(pending, delayMs, () => res.end(body.subarray(cut)));
      res.once('close', () => {
        clearTimeout(t);
        pending.timers.delete(t);
      });
      return;
    }
  }
}

export function writeHtml502(res: ServerResponse, extra?: Record<string, string>): void {
  const body = Buffer.from(HTML_502, 'utf8');
  res.writeHead(502, { 'Content-Type': 'text/html', 'Content-Length': body.length, ...extra });
  res.end(body);
}
