// The proxy settings as undici's EnvHttpProxyAgent takes them, and which proxy it will use for an address
// (to name that proxy in messages): HTTPS_PROXY falls back to HTTP_PROXY, NO_PROXY as undici matches it.
import { InvalidParamsError } from './api-errors.js';
import { isLoopbackHost } from './loopback.js';
import { percentDecode } from './percent-decode.js';

export interface ProxySettings {
  /** The proxy for http:// addresses. */
  httpProxy?: string;
  /** The proxy for https:// addresses; when unset, `httpProxy` serves them too. */
  httpsProxy?: string;
  /** Hosts reached directly: `example.com` (and its subdomains), `.example.com`, `*.example.com`, `host:port`, or `*` alone for all. */
  noProxy?: string;
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The port an http(s) address connects to, the default one when it names none. */
export function portOf(url: URL): number {
  return Number.parseInt(url.port, 10) || DEFAULT_PORT[url.protocol] || 0;
}

/** One setting as an address: a bare `host:port` is an http proxy (as curl reads it); undefined when blank. */
function parseProxy(setting: string | undefined, role: string): URL | undefined {
  const text = setting?.trim();
  if (!text) return undefined;
  let proxy: URL | undefined;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    proxy = undefined;
  }
  // The setting may hold a password: the message names the variable's role, never its value.
  if (!proxy || (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') || proxy.hostname === '') {
    throw new InvalidParamsError(`the proxy for ${role} addresses is not an http:// or https:// address`);
  }
  return proxy;
}

/**
 * Whether NO_PROXY sends `url` around the proxy, exactly as EnvHttpProxyAgent decides it (undici 7,
 * lib/dispatcher/env-http-proxy-agent.js): entries split on commas and blanks; a leading `.` or `*.` dropped;
 * an entry covers its host and every subdomain; `host:port` only that port; `*` only as the whole value.
 * No CIDR ranges, and an IPv6 entry needs its brackets (`[::1]`). Loopback is never proxied, whatever it says.
 */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (isLoopbackHost(url.hostname)) return true;
  const value = (noProxy ?? '').trim();
  if (value === '*') return true;
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = portOf(url);
  return value
    .split(/[,\s]/)
    .filter(Boolean)
    .some((entry) => {
      const parsed = /^(.+):(\d+)$/.exec(entry);
      const name = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
      if (parsed && Number.parseInt(parsed[2]!, 10) !== port) return false;
      return host === name || host.endsWith(`.${name}`);
    });
}

/** The proxy a request to `url` goes through, or undefined for a direct connection. */
export function proxyFor(url: URL, settings: ProxySettings): URL | undefined {
  const https = url.protocol === 'https:';
  const proxy = https
    ? (parseProxy(settings.httpsProxy, 'https://') ?? parseProxy(settings.httpProxy, 'https://'))
    : parseProxy(settings.httpProxy, 'http://');
  if (!proxy || bypassesProxy(url, settings.noProxy)) return undefined;
  return proxy;
}

/** `Proxy-Authorization` for a proxy address with user:password in it (a user alone is `user:`). */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${percentDecode(proxy.username)}:${percentDecode(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** `host:port` of a proxy, for messages: never its credentials. */
export function proxyName(proxy: URL): string {
  return `${proxy.hostname}:${portOf(proxy)}`;
}

/** The options EnvHttpProxyAgent is built with: every value given, so that it never reads process.env itself. */
export interface EnvProxyOptions {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
  /** One Proxy-Authorization for both proxies, when they carry the same credentials. */
  token?: string;
}

/** The address without its credentials, or with them spelt so that undici's decodeURIComponent gives ours. */
function spelt(proxy: URL | undefined, keepCredentials: boolean): string {
  if (!proxy) return '';
  const copy = new URL(proxy.href);
  copy.username = keepCredentials ? encodeURIComponent(percentDecode(proxy.username)) : '';
  copy.password = keepCredentials ? encodeURIComponent(percentDecode(proxy.password)) : '';
  return copy.href;
}

/**
 * The settings for EnvHttpProxyAgent, or undefined when no proxy is set (one plain Agent then). An invalid
 * setting is left out here: proxyFor refuses each request that would use it, before it is sent.
 * Credentials: undici sends them only when both user and password are set, and decodes them strictly, so
 * we build the token ourselves; it is one option for both proxies, so proxies with different credentials
 * keep theirs in their addresses (a user without a password is then not sent).
 */
export function envProxyOptions(settings: ProxySettings): EnvProxyOptions | undefined {
  const valid = (setting: string | undefined, role: string) => {
    try {
      return parseProxy(setting, role);
    } catch {
      return undefined;
    }
  };
  const http = valid(settings.httpProxy, 'http://');
  const https = valid(settings.httpsProxy, 'https://');
  if (!http && !https) return undefined;
  const used = [http, https ?? http].filter((p): p is URL => p !== undefined);
  const tokens = new Set(used.map((p) => proxyAuthorization(p)));
  const shared = tokens.size === 1;
  const token = shared ? [...tokens][0] : undefined;
  return {
    httpProxy: spelt(http, !shared),
    httpsProxy: spelt(https, !shared),
    noProxy: (settings.noProxy ?? '').trim(),
    ...(token ? { token } : {}),
  };
}
