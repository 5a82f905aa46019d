// The request pipeline: log -> hooks -> auth -> rate limit -> route -> validate query -> fault -> generate -> respond.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CUSTOM_FEED_NAME } from '../api/schemas.js';
import { CUSTOM_FEEDS, feedAnswer, parseFeedQuery, sourcesAnswer, type FeedRequest } from './api.js';
import type { SandboxCore } from './core.js';
import type { FaultDecision as Fault } from './faults.js';
import { handleHook } from './hooks.js';
import type { SandboxKey } from './demo-keys.js';
import type { LimitDecision, LimitSnapshot } from './limiter.js';
import {
  errorAnswer,
  internalError,
  isoMicros,
  methodNotAllowed,
  notFound,
  rateLimitAnswer,
  serviceUnavailable,
  writeAnswer,
  writeHtml502,
  writeWithFault,
  type ApiAnswer,
  type Pending,
} from './respond.js';
import type { RequestLogEntry } from './types.js';

export const SANDBOX_VERSION = '1.0.0-sandbox';

const KEY_HELP =
  'Send a valid key in the X-API-Key header. The sandbox accepts its demo keys (DEMO_KEYS) or those it was started with.';

function rateHeaders(s: LimitSnapshot): Record<string, string> {
  const h: Record<string, string> = {};
  for (const [w, name] of [
    ['minute', 'Minute'],
    ['hour', 'Hour'],
    ['day', 'Day'],
  ] as const) {
    h[`X-RateLimit-Limit-${name}`] = String(s[w].limit);
    h[`X-RateLimit-Remaining-${name}`] = String(s[w].remaining);
    h[`X-RateLimit-Reset-${name}`] = String(Math.ceil(s[w].resetAt / 1000));
  }
  return h;
}

type Route = { kind: 'feed' } | { kind: 'custom'; name: string } | { kind: 'sources' } | { kind: 'unknown' };

function routeOf(path: string): Route {
  if (path === '/v1/recalls/feed') return { kind: 'feed' };
  if (path === '/v1/recalls/sources') return { kind: 'sources' };
  const m = /^\/v1\/recalls\/feed\/([^/]+)$/.exec(path);
  if (!m) return { kind: 'unknown' };
  // A percent-escape that decodes to no text (`%E0`, `%zz`) names no feed: 404, not a 500 clients would retry.
  const name = decodeSegment(m[1] as string);
  return name === undefined ? { kind: 'unknown' } : { kind: 'custom', name };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function createHandler(core: SandboxCore, pending: Pending) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(core, pending, req, res).catch(() => {
      if (!res.headersSent) writeAnswer(res, internalError());
      else res.destroy();
    });
  };
}

/** One API request on its way through the pipeline: where it goes, who sent it, and its log entry. */
interface Exchange {
  core: SandboxCore;
  res: ServerResponse;
  url: URL;
  path: string;
  method: string;
  now: number;
  startedAt: number;
  entry: RequestLogEntry;
  /** Sends an answer without rate-limit headers (before auth), recording its status. */
  send(a: ApiAnswer): void;
}

/** The answers of a keyed request: counted against the key once, with the rate-limit headers when enabled. */
interface Keyed {
  key: SandboxKey;
  count(): LimitDecision;
  send(a: ApiAnswer, snapshot?: LimitSnapshot): void;
}

async function handle(core: SandboxCore, pending: Pending, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = performance.now();
  // The request target appended, not resolved: resolved, `//v1/recalls/sources` would read `v1` as a host.
  const target = req.url ?? '/';
  const url = target.startsWith('/')
    ? new URL(`http://sandbox.invalid${target}`)
    : new URL(target, 'http://sandbox.invalid');
  const path = url.pathname;
  if (path === '/_sandbox' || path.startsWith('/_sandbox/')) return handleHook(core, req, res, path);
  core.tick();
  // Dated on the sandbox's own clock, which its reset_at and X-RateLimit-Reset-* use too (Node's own Date
  // would be the machine's, even under --sandbox-now): a client measures a 429's wait against this header.
  res.setHeader('Date', new Date(core.now()).toUTCString());
  // Said, so that doctor does not blame this machine's clock for the sandbox's chosen instant.
  if (core.shiftedClock) res.setHeader('X-Sandbox-Clock', 'shifted');
  const rawKey = req.headers['x-api-key'];
  const keyValue = Array.isArray(rawKey) ? rawKey[0] : rawKey;
  const key = core.keyring.find(keyValue);
  const x = logged(core, req, res, url, startedAt, keyValue === undefined ? 'missing' : (key?.name ?? 'invalid'));
  if (path === '/health') return x.send(healthAnswer(x));
  if (!path.startsWith('/v1/')) return x.send(notFound(path));
  if (!key)
    return x.send(
      errorAnswer(401, 'invalid_api_key', keyValue === undefined ? 'Missing API key' : 'Invalid API key', KEY_HELP),
    );
  const keyed = keyedAnswers(x, key);
  // Past auth the limit comes first: with a window full the answer is a 429, which does not count, whatever else the
  // request would have got; otherwise it counts, whatever its answer (a 400 or a 404 too: docs/api.md).
  const decision = keyed.count();
  if (!decision.allowed) {
    const a = rateLimitAnswer(decision.limitType, decision.limit, decision.resetAt);
    return keyed.send(withRetryAfter(core, a, decision.resetAt, x.now), decision.snapshot);
  }
  const route = routeOf(path);
  const request = checkRequest(x, route, key);
  if ('status' in request) return keyed.send(request);
  const fault = core.faults.decide();
  if (fault) x.entry.fault = fault.label;
  if (statusFault(x, keyed, fault, decision.snapshot)) return;
  respond(x, pending, route, generate(x, route, request.feed, key, decision.snapshot), fault);
}

/** Logs the request (never the key) and wraps the response. */
function logged(
  core: SandboxCore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  startedAt: number,
  keyName: string,
): Exchange {
  const now = core.now();
  const entry: RequestLogEntry = {
    at: new Date(now).toISOString(),
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    status: 0,
    key: keyName,
  };
  core.logRequest(entry);
  const send = (a: ApiAnswer) => {
    entry.status = a.status;
    writeAnswer(res, a);
  };
  return { core, res, url, path: url.pathname, method: entry.method, now, startedAt, entry, send };
}

function healthAnswer(x: Exchange): ApiAnswer {
  if (x.method !== 'GET') return methodNotAllowed(x.method, x.path);
  const healthy = x.core.healthy;
  return {
    status: healthy ? 200 : 503,
    body: { status: healthy ? 'healthy' : 'unhealthy', timestamp: isoMicros(x.now), version: SANDBOX_VERSION },
  };
}

function keyedAnswers(x: Exchange, key: SandboxKey): Keyed {
  let counted: LimitSnapshot | undefined;
  return {
    key,
    count: () => {
      const d = x.core.limiter.consume(key.name, x.now);
      counted = d.snapshot;
      return d;
    },
    send: (a, snapshot = counted ?? x.core.limiter.snapshot(key.name, x.now)) => {
      x.send(x.core.rateLimitHeaders ? { ...a, headers: { ...rateHeaders(snapshot), ...a.headers } } : a);
    },
  };
}

/** Route, method, custom feed name and query: the refusal to send, or the feed request to serve. */
function checkRequest(x: Exchange, route: Route, key: SandboxKey): ApiAnswer | { feed: FeedRequest | undefined } {
  if (route.kind === 'unknown') return notFound(x.path);
  if (x.method !== 'GET') return methodNotAllowed(x.method, x.path);
  if (route.kind === 'custom' && (!CUSTOM_FEED_NAME.test(route.name) || !CUSTOM_FEEDS[route.name])) {
    return errorAnswer(
      404,
      'not_found',
      `Unknown custom feed: ${route.name}`,
      'Custom feeds are set up per enterprise client; the sandbox serves /v1/recalls/feed/demo.',
    );
  }
  if (route.kind === 'sources') return { feed: undefined };
  const parsed = parseFeedQuery(x.url.searchParams, key, x.core.store);
  return 'status' in parsed ? parsed : { feed: parsed };
}

/** Faults that replace the answer entirely; true when one was sent. */
function statusFault(x: Exchange, keyed: Keyed, fault: Fault | undefined, snapshot: LimitSnapshot): boolean {
  switch (fault?.kind) {
    case 'error500':
      keyed.send(internalError());
      return true;
    case 'error503':
      keyed.send(serviceUnavailable());
      return true;
    case 'burst429': {
      const resetAt = Math.ceil(x.now / 1000) * 1000 + 1000;
      const a = rateLimitAnswer('minute', x.core.limiter.config.minute.limit, resetAt);
      keyed.send(withRetryAfter(x.core, a, resetAt, x.now));
      return true;
    }
    case 'html502':
      x.entry.status = 502;
      writeHtml502(x.res, x.core.rateLimitHeaders ? rateHeaders(snapshot) : undefined);
      return true;
    default:
      return false;
  }
}

function generate(
  x: Exchange,
  route: Route,
  feed: FeedRequest | undefined,
  key: SandboxKey,
  snapshot: LimitSnapshot,
): ApiAnswer {
  const answer =
    route.kind === 'sources' || !feed
      ? sourcesAnswer(key)
      : feedAnswer(
          feed,
          { store: x.core.store, now: x.now, startedAt: x.startedAt, key, snapshot },
          route.kind === 'custom' ? route.name : undefined,
        );
  return x.core.rateLimitHeaders ? { ...answer, headers: rateHeaders(snapshot) } : answer;
}

/** Writes the answer, through a body-level fault (cut, truncate, slow, stall) when one was drawn. */
function respond(x: Exchange, pending: Pending, route: Route, answer: ApiAnswer, fault: Fault | undefined): void {
  x.entry.status = answer.status;
  if (route.kind !== 'sources' && (!fault || fault.kind === 'slow' || fault.kind === 'stall'))
    x.core.faults.pageServed();
  if (!fault) {
    writeAnswer(x.res, answer);
    return;
  }
  const delay = fault.kind === 'slow' ? x.core.faults.slowMs : x.core.faults.stallMs;
  // statusFault has sent the other kinds; what is left are the body-level ones.
  writeWithFault(x.res, answer, fault.kind as Parameters<typeof writeWithFault>[2], pending, delay);
}

function withRetryAfter(core: SandboxCore, a: ApiAnswer, resetAt: number, now: number): ApiAnswer {
  if (!core.rateLimitHeaders) return a;
  return { ...a, headers: { ...a.headers, 'Retry-After': String(Math.max(1, Math.ceil((resetAt - now) / 1000))) } };
}
