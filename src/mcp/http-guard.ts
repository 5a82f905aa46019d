// What a request to `mcp --http` must show before the MCP transport sees it: its path, Host and Origin (DNS rebinding), and the bearer token.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../api/loopback.js';

export const MCP_PATH = '/mcp';

export interface GuardOptions {
  /** The address the server is bound to. */
  host: string;
  /** Required on every request when set: the config's mcp-token. */
  token: string | undefined;
}

export interface Refusal {
  status: number;
  message: string;
}

/** A Host or Origin's hostname, lower case, IPv6 in brackets; undefined when it is no host at all. */
function hostnameOf(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function originHostname(origin: string): string | undefined {
  if (!URL.canParse(origin)) return undefined;
  const url = new URL(origin);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : undefined;
}

/** Compared as digests of equal length: no early exit tells an attacker how much of a guess was right. */
function sameToken(given: string, token: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/**
 * Bound to loopback, a page in a browser may still reach the server under a name that resolves to 127.0.0.1
 * (DNS rebinding): then its Host is that name and its Origin that site, so both must be loopback names. Bound
 * beyond loopback, the bearer token decides; an Origin must still be the host the request was sent to.
 */
export function refusal(
  req: { url?: string | undefined; headers: Record<string, string | string[] | undefined> },
  opts: GuardOptions,
): Refusal | undefined {
  const path = (req.url ?? '').split('?')[0];
  if (path !== MCP_PATH) return { status: 404, message: `not found: the MCP endpoint is ${MCP_PATH}` };
  const hostHeader = typeof req.headers.host === 'string' ? req.headers.host : '';
  const hostname = hostnameOf(hostHeader);
  if (hostname === undefined) return { status: 400, message: 'a Host header is required' };
  const loopbackBind = isLoopbackHost(opts.host);
  if (loopbackBind && !isLoopbackHost(hostname)) return { status: 403, message: 'Host is not this machine' };
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    const from = originHostname(origin);
    const allowed = from !== undefined && (loopbackBind ? isLoopbackHost(from) : from === hostname);
    if (!allowed) return { status: 403, message: 'Origin not allowed' };
  } else if (origin === 'null') return { status: 403, message: 'Origin not allowed' };
  if (opts.token !== undefined) {
    const auth = typeof req.headers.authorization === 'string' ? req.headers.authorization : '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m || !sameToken(m[1]!, opts.token)) return { status: 401, message: 'a valid bearer token is required' };
  }
  return undefined;
}
