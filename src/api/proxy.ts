// Which proxy, if any, a request goes through: HTTP_PROXY/HTTPS_PROXY/NO_PROXY as curl reads them.
import { InvalidParamsError } from './api-errors.js';
import { isLoopbackHost } from './loopback.js';

export interface ProxySettings {
  /** The proxy for http:// addresses. */
  httpProxy?: string;
  /** The proxy for https:// addresses; when unset, `httpProxy` serves them too. */
  httpsProxy?: string;
  /** Hosts reached directly: `example.com` (and its subdomains), `.example.com`, `host:port`, or `*` for all. */
  noProxy?: string;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The port an http(s) address connects to, the default one when it names none. */
export function portOf(url: URL): string {
  return url.port || DEFAULT_PORT[url.protocol] || '';
}

/** Whether one NO_PROXY entry covers `url`: the host itself or a subdomain of it, and the port when one is named. */
function entryCovers(entry: string, url: URL): boolean {
  // An IPv6 address as curl takes it, without brackets (`::1`, `2001:db8::1`): no port can follow it.
  const spelt = /^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*$/i.test(entry) ? `[${entry}]` : entry;
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(spelt);
  if (!match) return false;
  const host = match[1]!.replace(/^\*?\./, '').toLowerCase();
  if (host === '' || (match[2] !== undefined && match[2] !== portOf(url))) return false;
  const target = url.hostname.toLowerCase();
  return target === host || target.endsWith(`.${host}`);
}

export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  // Loopback never goes through a proxy: the sandbox must work behind a corporate HTTP_PROXY.
  if (isLoopbackHost(url.hostname)) return true;
  const entries = (noProxy ?? '').split(/[\s,]+/).filter(Boolean);
  return entries.some((entry) => entry === '*' || entryCovers(entry, url));
}

/** The proxy a request to `url` goes through, or undefined for a direct connection. */
export function proxyFor(url: URL, settings: ProxySettings): URL | undefined {
  const https = url.protocol === 'https:';
  const setting = (https ? settings.httpsProxy || settings.httpProxy : settings.httpProxy)?.trim();
  if (!setting || bypassesProxy(url, settings.noProxy)) return undefined;
  // curl reads a bare `host:port` as an http proxy.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(setting) ? setting : `http://${setting}`;
  let proxy: URL | undefined;
  try {
    proxy = new URL(text);
  } catch {
    proxy = undefined;
  }
  // The setting may hold a password: the message names the variable's role, never its value.
  if (!proxy || (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') || proxy.hostname === '') {
    throw new InvalidParamsError(`the proxy for ${url.protocol}// addresses is not an http:// or https:// address`);
  }
  return proxy;
}

/** %XX escapes decoded; a % that starts none (a password's own %, never escaped) stays as it is, as curl sends it. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** `Proxy-Authorization` for a proxy address with user:password in it. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${percentDecode(proxy.username)}:${percentDecode(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** `host:port` of a proxy, for messages: never its credentials. */
export function proxyName(proxy: URL): string {
  return `${proxy.hostname}:${portOf(proxy)}`;
}
