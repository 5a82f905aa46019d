// Keep-alive connections over Node's own http and https: direct, through a proxy, or tunnelled through one.
//
// Node's http client rather than undici: loading undici costs a short run more than everything else it
// does (about 60 ms and Node's own copy of undici besides), and one GET or POST at a time needs no more.
import http from 'node:http';
import type { RequestOptions as TlsRequestOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { ConnectionError, ProxyAuthError } from './api-errors.js';
import { portOf as portText, proxyAuthorization, proxyFor, proxyName, type ProxySettings } from './proxy.js';

type RequestFn = typeof http.request;

/** Where one request goes: the function that sends it and its options (host, port, path, agent, headers). */
export interface Route {
  request: RequestFn;
  options: TlsRequestOptions;
  /** The proxy every connection of this route is made to, for messages about failures to connect. */
  via?: string;
  /** The proxy that opens each connection's tunnel: the one to name when no connection came in time. */
  tunnelVia?: string;
}

/** `[::1]` → `::1`: a URL's hostname keeps IPv6 brackets, a socket address has none. */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');
const portOf = (url: URL) => Number(portText(url));
const loadHttps = () => import('node:https');
/**
 * TLS to a proxy checks the proxy's own name. Said explicitly: Node would take the name from the Host
 * header, which names the API. An IP address is sent as no name (SNI carries none) and checked as itself.
 */
const proxyServername = (proxy: URL) => (isIP(bare(proxy.hostname)) ? '' : bare(proxy.hostname));

export class Connections {
  private readonly agents = new Map<string, http.Agent>();
  private readonly pendingTunnels = new Set<http.ClientRequest>();

  constructor(private readonly proxy: ProxySettings = {}) {}

  /** How to send a request to `url` (http: or https:), reusing an idle connection where one is open. */
  async route(url: URL): Promise<Route> {
    const proxy = proxyFor(url, this.proxy);
    const secure = url.protocol === 'https:';
    const direct = { host: bare(url.hostname), port: portOf(url), path: `${url.pathname}${url.search}` };
    if (proxy === undefined) {
      const scheme = secure ? await loadHttps() : http;
      const agent = this.agent(url.protocol, () => new scheme.Agent({ keepAlive: true }));
      return { request: scheme.request, options: { ...direct, agent } };
    }
    const auth = proxyAuthorization(proxy);
    // The module that speaks to the proxy itself: TLS for an https:// proxy.
    const toProxy = proxy.protocol === 'https:' ? await loadHttps() : http;
    if (!secure) {
      // Plain http through the proxy: the whole address as the request target, the proxy's own connection pool.
      const headers: http.OutgoingHttpHeaders = { host: url.host };
      if (auth) headers['proxy-authorization'] = auth;
      return {
        request: toProxy.request,
        options: {
          host: bare(proxy.hostname),
          port: portOf(proxy),
          path: url.href,
          headers,
          agent: this.agent(`via ${proxy.href}`, () => new toProxy.Agent({ keepAlive: true })),
          servername: proxyServername(proxy),
        },
        via: `the proxy ${proxyName(proxy)}`,
      };
    }
    // https through the proxy: CONNECT opens a tunnel per connection, and TLS to the API runs inside it.
    const [https, tls] = await Promise.all([loadHttps(), import('node:tls')]);
    const agent = this.agent(`tunnel ${proxy.href}`, () => {
      const tunnelled = new https.Agent({ keepAlive: true });
      // Node's agents accept a connection handed over later, through the callback.
      tunnelled.createConnection = (options, done) => {
        this.tunnel(proxy, toProxy.request, auth, String(options.host), Number(options.port)).then(
          (socket) => done?.(null, tls.connect({ ...options, socket } as import('node:tls').ConnectionOptions)),
          (err: Error) => done?.(err, undefined as unknown as Duplex),
        );
        return undefined;
      };
      return tunnelled;
    });
    return { request: https.request, options: { ...direct, agent }, tunnelVia: `the proxy ${proxyName(proxy)}` };
  }

  /** Closes every idle connection and abandons tunnels still being opened. */
  close(): void {
    for (const req of this.pendingTunnels) req.destroy();
    this.pendingTunnels.clear();
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  /** The pool kept under `key`, made by `make` the first time. */
  private agent(key: string, make: () => http.Agent): http.Agent {
    let agent = this.agents.get(key);
    if (!agent) {
      agent = make();
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** A socket to `host:port` through the proxy (CONNECT); a refusal is a ConnectionError or ProxyAuthError naming it. */
  private tunnel(
    proxy: URL,
    request: RequestFn,
    auth: string | undefined,
    host: string,
    port: number,
  ): Promise<Duplex> {
    const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const headers: http.OutgoingHttpHeaders = { host: authority };
    if (auth) headers['proxy-authorization'] = auth;
    const name = proxyName(proxy);
    const options: TlsRequestOptions = {
      host: bare(proxy.hostname),
      port: portOf(proxy),
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
      servername: proxyServername(proxy),
    };
    const connect = request(options);
    this.pendingTunnels.add(connect);
    return new Promise<Duplex>((resolve, reject) => {
      connect.once('connect', (res, socket) => {
        this.pendingTunnels.delete(connect);
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve(socket);
        socket.destroy();
        const refused = `the proxy ${name} refused a tunnel to ${authority}: it`;
        if (status === 407) return reject(new ProxyAuthError(`${refused} asks for credentials (HTTP 407)`));
        reject(new ConnectionError(`${refused} answered HTTP ${status}`, 'PROXY_CONNECT'));
      });
      // As it came: the transport names the proxy in its message (a refused connection, a bad certificate).
      connect.once('error', (err) => {
        this.pendingTunnels.delete(connect);
        reject(err);
      });
      connect.end();
    });
  }
}
