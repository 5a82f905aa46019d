// The undici dispatchers requests go through: one keep-alive Agent, or EnvHttpProxyAgent when a proxy is set;
// loopback always directly. undici is loaded on the first request, so that building a client costs nothing.
import diagnostics from 'node:diagnostics_channel';
import type { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';
import { envProxyOptions, proxyFor, type ProxySettings } from './proxy.js';
import { isLoopbackHost } from './loopback.js';

export interface HttpAgentOptions {
  proxy?: ProxySettings;
  /** Bounds each connection (TCP, TLS, a proxy's CONNECT) as the request's own timeout bounds the request. */
  timeoutMs: number;
}

/** Where one request goes: the dispatcher, and the proxy it goes through (for messages), if any. */
export interface Route {
  dispatcher: Dispatcher;
  proxy: URL | undefined;
}

/**
 * Tunnels undici has opened through a proxy, by target (`host:port`, as in the CONNECT line): a request that
 * fails after its tunnel opened failed at the API (its TLS, its silence), not at the proxy.
 */
const tunnelsOpened = new Map<string, number>();
let countingTunnels = false;

function countTunnels(): void {
  if (countingTunnels) return;
  countingTunnels = true;
  diagnostics.subscribe('undici:proxy:connected', (message) => {
    const target = (message as { connectParams?: { path?: unknown } }).connectParams?.path;
    if (typeof target === 'string') tunnelsOpened.set(target, (tunnelsOpened.get(target) ?? 0) + 1);
  });
}

/** How many tunnels to `authority` (`host:port`) have opened in this process so far. */
export function tunnelsTo(authority: string): number {
  return tunnelsOpened.get(authority) ?? 0;
}

export class HttpAgent {
  private direct: Agent | undefined;
  private proxied: EnvHttpProxyAgent | undefined;
  private readonly proxySettings: ProxySettings;
  /** EnvHttpProxyAgent's options from the settings, worked out on the first request that may use a proxy. */
  private envOptions: { value: ReturnType<typeof envProxyOptions> } | undefined;

  constructor(private readonly opts: HttpAgentOptions) {
    this.proxySettings = opts.proxy ?? {};
  }

  private proxyOptions(): ReturnType<typeof envProxyOptions> {
    this.envOptions ??= { value: envProxyOptions(this.proxySettings) };
    return this.envOptions.value;
  }

  /** The dispatcher for `url`; throws InvalidParamsError (before anything is sent) for an invalid proxy setting. */
  async route(url: URL): Promise<Route> {
    const proxy = proxyFor(url, this.proxySettings);
    // undici is CommonJS: its module.exports is the default export, with or without the bundle's interop.
    const undici = (await import('undici')).default;
    const timeout = this.opts.timeoutMs;
    const envOptions = isLoopbackHost(url.hostname) ? undefined : this.proxyOptions();
    if (envOptions === undefined) {
      this.direct ??= new undici.Agent({ connect: { timeout } });
      return { dispatcher: this.direct, proxy: undefined };
    }
    countTunnels();
    // EnvHttpProxyAgent decides by itself which proxy, if any, a host goes through; proxyFor mirrors it.
    this.proxied ??= new undici.EnvHttpProxyAgent({
      ...envOptions,
      // Plain http goes to the proxy as an absolute-form request, as curl sends it; https is tunnelled (CONNECT).
      proxyTunnel: false,
      connect: { timeout },
      proxyTls: { timeout },
      requestTls: { timeout },
      // A CONNECT that a proxy never answers ignores the request's abort: bounded here, its socket is closed
      // rather than left open for undici's default 300 s (a --watch would pile them up poll after poll).
      clientFactory: (origin: URL, options: object) =>
        new undici.Pool(origin, { ...options, headersTimeout: timeout, bodyTimeout: timeout }),
    } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]);
    return { dispatcher: this.proxied, proxy };
  }

  /** Closes every connection, idle or not; requests still running fail. */
  async close(): Promise<void> {
    const agents = [this.direct, this.proxied];
    this.direct = undefined;
    this.proxied = undefined;
    await Promise.all(agents.map((a) => a?.destroy()));
  }
}
