// The request pipeline: log -> hooks -> auth -> route -> validate query -> rate limit -> fault -> generate -> respond.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CUSTOM_FEED_NAME } from '../api/schemas.js';
import { CUSTOM_FEEDS, feedAnswer, parseFeedQuery, sourcesAnswer } from './api.js';
import type { SandboxCore } from './core.js';
import { handleHook } from './hooks.js';
import type { LimitSnapshot } from './limiter.js';
import {
  errorAnswer, internalError, isoMicros, methodNotAllowed, notFound, rateLimitAnswer, serviceUnavailable,
  writeAnswer, writeHtml502, writeWithFault, type ApiAnswer, type Pending,
} from './respond.js';
import type { RequestLogEntry } from './types.js';

export const SANDBOX_VERSION = '1.0.0-sandbox';

const KEY_HELP = 'Send a valid key in the X-API-Key header. The sandbox accepts its demo keys (DEMO_KEYS) or those it was started with.';

function rateHeaders(s: LimitSnapshot): Record<string, string> {
  const h: Record<string, string> = {};
  for (const [w, name] of [['minute', 'Minute'], ['hour', 'Hour'], ['day', 'Day']] as const) {
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
  if (m) return { kind: 'custom', name: decodeURIComponent(m[1] as string) };
  return { kind: 'unknown' };
}

export function createHandler(core: SandboxCore, pending: Pending) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(core, pending, req, res).catch(() => {
      if (!res.headersSent) writeAnswer(res, internalError());
      else res.destroy();
    });
  };
}

async function handle(core: SandboxCore, pending: Pending, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = performance.now();
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const path = url.pathname;
  if (path === '/_sandbox' || path.startsWith('/_sandbox/')) return handleHook(core, req, res, path);

  core.tick();
  const now = core.now();
  const method = req.method ?? 'GET';
  const rawKey = req.headers['x-api-key'];
  const keyValue = Array.isArray(rawKey) ? rawKey[0] : rawKey;
  const key = core.keyring.find(keyValue);
  const entry: RequestLogEntry = {
    at: new Date(now).toISOString(),
    method,
    path,
    query: Object.fromEntries(url.searchParams),
    status: 0,
    key: key ? key.name : keyValue === undefined ? 'missing' : 'invalid',
  };
  core.logRequest(entry);
  const send = (a: ApiAnswer) => {
    entry.status = a.status;
    writeAnswer(res, a);
  };

  if (path === '/health') {
    if (method !== 'GET') return send(methodNotAllowed(method, path));
    const status = core.healthy ? 'healthy' : 'unhealthy';
    return send({ status: core.healthy ? 200 : 503, body: { status, timestamp: isoMicros(now), version: SANDBOX_VERSION } });
  }
  if (!path.startsWith('/v1/')) return send(notFound(path));

  // auth
  if (!key) {
    return send(errorAnswer(401, 'invalid_api_key', keyValue === undefined ? 'Missing API key' : 'Invalid API key', KEY_HELP));
  }
  // Past auth every answer counts against the key, except a 429 refusal; `count` runs once per request.
  let counted: LimitSnapshot | undefined;
  const count = () => {
    const d = core.limiter.consume(key.name, now);
    counted = d.snapshot;
    return d;
  };
  const sendKeyed = (a: ApiAnswer, snapshot: LimitSnapshot = counted ?? core.limiter.snapshot(key.name, now)) => {
    send(core.rateLimitHeaders ? { ...a, headers: { ...rateHeaders(snapshot), ...a.headers } } : a);
  };

  // route
  const route = routeOf(path);
  if (route.kind === 'unknown') {
    count();
    return sendKeyed(notFound(path));
  }
  if (method !== 'GET') {
    count();
    return sendKeyed(methodNotAllowed(method, path));
  }
  if (route.kind === 'custom' && (!CUSTOM_FEED_NAME.test(route.name) || !CUSTOM_FEEDS[route.name])) {
    count();
    return sendKeyed(errorAnswer(404, 'not_found', `Unknown custom feed: ${route.name}`,
      'Custom feeds are set up per enterprise client; the sandbox serves /v1/recalls/feed/demo.'));
  }

  // validate query
  const parsed = route.kind === 'sources' ? undefined : parseFeedQuery(url.searchParams, key, core.store);
  if (parsed && 'status' in parsed) {
    count();
    return sendKeyed(parsed);
  }

  // rate limit
  const decision = count();
  if (!decision.allowed) {
    const a = rateLimitAnswer(decision.limitType, decision.limit, decision.resetAt);
    return sendKeyed(withRetryAfter(core, a, decision.resetAt, now), decision.snapshot);
  }

  // fault
  const fault = core.faults.decide();
  if (fault) entry.fault = fault.label;
  switch (fault?.kind) {
    case 'error500':
      return sendKeyed(internalError());
    case 'error503':
      return sendKeyed(serviceUnavailable());
    case 'burst429': {
      const resetAt = Math.ceil(now / 1000) * 1000 + 1000;
      const a = rateLimitAnswer('minute', core.limiter.config.minute.limit, resetAt);
      return sendKeyed(withRetryAfter(core, a, resetAt, now));
    }
    case 'html502':
      entry.status = 502;
      return writeHtml502(res, core.rateLimitHeaders ? rateHeaders(decision.snapshot) : undefined);
  }

  // generate
  const answer =
    route.kind === 'sources'
      ? sourcesAnswer(key)
      : feedAnswer(parsed as Exclude<typeof parsed, undefined | ApiAnswer>,
          { store: core.store, now, startedAt, key, snapshot: decision.snapshot },
          route.kind === 'custom' ? route.name : undefined);
  const full = core.rateLimitHeaders ? { ...answer, headers: rateHeaders(decision.snapshot) } : answer;

  // respond
  entry.status = full.status;
  if (route.kind !== 'sources' && (!fault || fault.kind === 'slow' || fault.kind === 'stall')) core.faults.pageServed();
  if (!fault) return writeAnswer(res, full);
  const delay = fault.kind === 'slow' ? core.faults.slowMs : core.faults.stallMs;
  writeWithFault(res, full, fault.kind, pending, delay);
}

function withRetryAfter(core: SandboxCore, a: ApiAnswer, resetAt: number, now: number): ApiAnswer {
  if (!core.rateLimitHeaders) return a;
  return { ...a, headers: { ...a.headers, 'Retry-After': String(Math.max(1, Math.ceil((resetAt - now) / 1000))) } };
}
