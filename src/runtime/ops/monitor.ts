// --monitor: healthchecks.io pings (start, success, fail) through the project's undici agent, bounded and never fatal.
import { HttpAgent } from '../../api/http-agent.js';
import type { ProxySettings } from '../../api/proxy.js';
import { send } from '../../api/transport.js';

/** A monitor that takes longer than this is reported as slow and left behind: the job never waits on it. */
export const MONITOR_TIMEOUT_MS = 10_000;
/** Healthchecks keeps the first 100 kB of a body; ours stays well under it. */
const MAX_BODY_BYTES = 10_000;

export type PingKind = 'start' | 'success' | 'fail';

/** `https://hc-ping.com/…`: where, without the token. */
export function maskMonitorUrl(url: URL): string {
  return `${url.protocol}//${url.host}/…`;
}

/** The address of one ping: <url>/start, <url>, <url>/fail (query kept, e.g. ?create=1). */
export function pingUrl(base: URL, kind: PingKind): URL {
  const url = new URL(base);
  const path = url.pathname.replace(/\/+$/, '');
  if (kind !== 'success') url.pathname = `${path}/${kind}`;
  return url;
}

/** The body cut to what a monitor keeps: the end matters most (the last lines say why it failed). */
function bounded(body: string): string {
  const bytes = Buffer.from(body);
  if (bytes.length <= MAX_BODY_BYTES) return body;
  return `…${bytes
    .subarray(bytes.length - MAX_BODY_BYTES)
    .toString('utf8')
    .replace(/^\uFFFD+/, '')}`;
}

export class Monitor {
  private readonly agent: HttpAgent;

  constructor(
    private readonly url: URL,
    proxy: ProxySettings,
    private readonly warn: (message: string) => void,
    private readonly timeoutMs = MONITOR_TIMEOUT_MS,
  ) {
    this.agent = new HttpAgent({ proxy, timeoutMs });
  }

  /** One ping; a failure is a warning on stderr, never an error of the run. Resolves whether it arrived. */
  async ping(kind: PingKind, body = ''): Promise<boolean> {
    try {
      const res = await send(pingUrl(this.url, kind), {
        agent: this.agent,
        method: 'POST',
        body: bounded(body),
        headers: { 'content-type': 'text/plain; charset=utf-8', 'user-agent': 'recall-feed' },
        timeoutMs: this.timeoutMs,
        maxBytes: 64 * 1024,
        discardBody: true,
      });
      if (res.status >= 200 && res.status < 300) return true;
      this.warn(`monitor ${maskMonitorUrl(this.url)} answered ${res.status} to the ${kind} ping`);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.warn(`monitor ${maskMonitorUrl(this.url)} not reached (${kind} ping): ${why}`);
    }
    return false;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
