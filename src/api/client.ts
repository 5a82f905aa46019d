// RecallFeedClient: the typed library the CLI runs on. Builds each request and reads its answer; the request
// loop paces, waits and retries. Never prints.
import { errorFromResponse } from './error-mapping.js';
import { maskErrorSecrets } from './errors-mask.js';
import { InvalidParamsError, InvalidResponseError } from './api-errors.js';
import { isHealthBody } from './body-shapes.js';
import type { InexactNumber } from './inexact-numbers.js';
import { CUSTOM_FEED_BODY, FEED_BODY, parseJson, readApiBody, SOURCES_BODY, type BodyShape } from './json-body.js';
import { paginate, type PagedResult } from './pagination.js';
import type { PacingOverrides, WindowName } from './pacing.js';
import { RequestLoop, type WaitEvent } from './request-loop.js';
import type {
  CustomRecord,
  FeedPage,
  FeedParams,
  HealthResponse,
  RateLimitInfo,
  Recall,
  SourcesResponse,
} from './schemas.js';
import { HttpAgent } from './http-agent.js';
import { header } from './answer-headers.js';
import type { ProxySettings } from './proxy.js';
import { send, type RawResponse, type SendOptions } from './transport.js';
import { feedQuery, validateCustomName } from './params.js';
import { checkApiKey, checkBaseUrl, endpointUrl } from './request-target.js';
import { MAX_TIMER_MS, sleep } from './sleep.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES,
} from './constants.js';

/** What the client reports while it works; the CLI turns these into --verbose lines and countdowns. */
export type ClientEvent =
  | { type: 'response'; path: string; query: string; status: number; ms: number; minuteRemaining: number }
  /** An answer held numbers that JSON.parse changed (inexact-numbers.ts): its records carry the numbers as kept. */
  | { type: 'inexact'; path: string; numbers: InexactNumber[] }
  /** An answer held bytes that are not UTF-8: its text, and its records, carry U+FFFD in their place. */
  | { type: 'not-utf8'; path: string }
  | WaitEvent;

export interface ClientOptions {
  apiKey?: string;
  /** The API's root; a path is kept as a prefix (`https://gw.example/api` asks `/api/v1/recalls/feed`). */
  baseUrl?: string;
  /** Per request, headers and body together. Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Retries of transient failures (5xx, connection, timeout, cut body). Default {@link DEFAULT_RETRIES}. */
  retries?: number;
  /** The longest single wait for a rate limit before giving up with WaitTooLongError. Default {@link DEFAULT_MAX_WAIT_MS}. */
  maxWaitMs?: number;
  /** The largest answer read, decoded; a larger one is a ResponseTooLargeError. Default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
  /** Own pacing: shorter windows (for a sandbox that shrinks them) or lower counts than the API reports. */
  pacing?: PacingOverrides;
  /** Proxy settings; loopback is never proxied. */
  proxy?: ProxySettings;
  /** Allow the key over plain http to a non-loopback host. Off: such a client refuses to be built. */
  allowInsecureHttp?: boolean;
  userAgent?: string;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  onEvent?: (event: ClientEvent) => void;
  /** Aborts in-flight requests and waits. */
  signal?: AbortSignal;
}

/** A health status that says the service is up (docs/api.md); any other word (`degraded`, `down`) is not. */
const UP = /^(healthy|ok|up|pass)$/i;

/** An HTML page: said so by its type, or by its first character. */
function isHtml(res: RawResponse): boolean {
  return /html/i.test(header(res.headers, 'content-type') ?? '') || res.body.trimStart().startsWith('<');
}

export interface HealthResult {
  healthy: boolean;
  httpStatus: number;
  latencyMs: number;
  body: HealthResponse | undefined;
  /** The status the answer says (its JSON `status`, or a plain-text word), when it says one. */
  status?: string;
}

export class RecallFeedClient {
  readonly baseUrl: URL;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly userAgent: string;
  private readonly now: () => number;
  private readonly onEvent: (event: ClientEvent) => void;
  private readonly signal: AbortSignal | undefined;
  private readonly loop: RequestLoop;
  private readonly proxy: ProxySettings | undefined;
  private agent: HttpAgent | undefined;

  constructor(opts: ClientOptions = {}) {
    this.apiKey = opts.apiKey === undefined ? undefined : checkApiKey(opts.apiKey);
    this.baseUrl = checkBaseUrl(opts.baseUrl ?? DEFAULT_BASE_URL, opts.apiKey, opts.allowInsecureHttp ?? false);
    const maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 1) {
      throw new InvalidParamsError(`maxResponseBytes must be a positive whole number, not ${maxResponseBytes}`);
    }
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // One timer covers a request: beyond setTimeout's limit Node would fire it at once.
    if (!(timeoutMs >= 1 && timeoutMs <= MAX_TIMER_MS)) {
      throw new InvalidParamsError(
        `timeoutMs must be between 1 ms and ${MAX_TIMER_MS} ms (24.8 days), not ${timeoutMs}`,
      );
    }
    const retries = opts.retries ?? DEFAULT_RETRIES;
    if (!(Number.isInteger(retries) && retries >= 0 && retries <= MAX_RETRIES)) {
      throw new InvalidParamsError(`retries must be a whole number from 0 to ${MAX_RETRIES}, not ${retries}`);
    }
    const maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    if (!(Number.isFinite(maxWaitMs) && maxWaitMs >= 0)) {
      throw new InvalidParamsError(`maxWaitMs must be a finite number of ms, 0 or more, not ${maxWaitMs}`);
    }
    this.timeoutMs = timeoutMs;
    this.maxResponseBytes = maxResponseBytes;
    this.userAgent = opts.userAgent ?? 'recall-feed';
    this.now = opts.now ?? Date.now;
    this.onEvent = opts.onEvent ?? (() => {});
    this.signal = opts.signal;
    this.loop = new RequestLoop({
      retries,
      maxWaitMs,
      pacing: opts.pacing,
      now: this.now,
      sleep: opts.sleep ?? sleep,
      random: opts.random ?? Math.random,
      onWait: (event) => this.onEvent(event),
      signal: opts.signal,
    });
    this.proxy = opts.proxy;
  }

  /** The rate_limit block of the latest feed page. */
  get lastRateLimit(): RateLimitInfo | undefined {
    return this.loop.lastRateLimit;
  }

  /** Time this client has spent waiting for rate limits (its own pacing and the API's 429s), in ms. */
  get rateLimitWaitMs(): number {
    return this.loop.rateLimitWaitMs;
  }

  /** Every recall in the window, following every cursor. */
  async *feed(params: FeedParams = {}): AsyncGenerator<Recall> {
    for await (const page of this.feedPages(params)) yield* page.data;
  }

  /** Page by page, with each page's pagination, meta, rate_limit and data_sources. */
  feedPages(params: FeedParams = {}): AsyncGenerator<PagedResult<Recall>> {
    const query = feedQuery(params);
    return paginate((cursor) => this.getPage('/v1/recalls/feed', query, cursor, FEED_BODY), params.cursor);
  }

  /** An enterprise feed `/v1/recalls/feed/<name>`; its records pass through whatever their shape. */
  async *customFeed(name: string, params: FeedParams = {}): AsyncGenerator<CustomRecord> {
    for await (const page of this.customFeedPages(name, params)) yield* page.data;
  }

  customFeedPages(name: string, params: FeedParams = {}): AsyncGenerator<PagedResult<CustomRecord>> {
    validateCustomName(name);
    const query = feedQuery(params);
    const path = `/v1/recalls/feed/${name}`;
    return paginate((cursor) => this.getPage(path, query, cursor, CUSTOM_FEED_BODY), params.cursor);
  }

  sources(): Promise<SourcesResponse> {
    return this.call(endpointUrl(this.baseUrl, '/v1/recalls/sources'), SOURCES_BODY);
  }

  /** GET /health without a key and without retries: a probe reports the state as it is now. */
  async health(): Promise<HealthResult> {
    const started = this.now();
    const url = endpointUrl(this.baseUrl, '/health');
    const res = await send(url, this.sendOptions(false));
    const latencyMs = this.now() - started;
    this.report(url, res.status, latencyMs);
    // A redirect, or a 404 (the API's /health answers 200 or 503): a wrong --base-url's answer, as for every request.
    if ((res.status >= 300 && res.status < 400) || res.status === 404)
      throw errorFromResponse(res.status, res.body, res.headers, url);
    let body: HealthResponse | undefined;
    let said: string | undefined;
    try {
      const json = parseJson(res);
      body = isHealthBody(json) ? json : undefined;
      // A status beside fields of other types (`"timestamp": 1717000000`) still says the status.
      const status = (json as { status?: unknown } | null)?.status;
      if (typeof status === 'string') said = status;
    } catch {
      // Plain text (`OK`, `degraded`), or an HTML error page from a proxy.
      if (!isHtml(res)) said = /^\s*([a-z]+)\s*$/i.exec(res.body)?.[1];
    }
    const ok = res.status >= 200 && res.status < 300;
    // The operator documents no body for /health: a 2xx is up when it says an up status (JSON `status`, or a
    // plain-text word: `healthy`, `ok`, `up`, `pass`, any case); another word is not up. A 2xx that says nothing of the
    // kind (a web page, an empty body, JSON without `status`: a site that answers every path) is not the API's.
    if (ok && said === undefined) {
      throw new InvalidResponseError('the health check answered with no status (a web page, or nothing): not the API', {
        status: res.status,
      });
    }
    const healthy = ok && UP.test((said ?? '').trim());
    return { healthy, httpStatus: res.status, latencyMs, body, ...(said !== undefined && { status: said }) };
  }

  /** Requests still allowed in one of the client's windows (the status line's minute budget, the metrics' headroom). */
  remaining(window: WindowName): number {
    return this.loop.remaining(window);
  }

  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    await agent?.close();
  }

  private async getPage<R>(
    path: string,
    query: URLSearchParams,
    cursor: string | undefined,
    shape: BodyShape<FeedPage<R>>,
  ): Promise<FeedPage<R>> {
    const q = new URLSearchParams(query);
    if (cursor !== undefined) q.set('cursor', cursor);
    const page = await this.call(endpointUrl(this.baseUrl, path, q), shape);
    this.loop.noteRateLimit(page.rate_limit);
    return page;
  }

  /** One authenticated GET through the request loop; the answer checked against `shape`. */
  private call<T>(url: URL, shape: BodyShape<T>): Promise<T> {
    let started = 0;
    return this.loop.run(
      () => {
        started = this.now();
        return send(url, this.sendOptions(true));
      },
      async (res: RawResponse) => {
        this.report(url, res.status, this.now() - started);
        try {
          if (res.status < 200 || res.status >= 300) throw errorFromResponse(res.status, res.body, res.headers, url);
          const body = await readApiBody(res, url, shape, (numbers) =>
            this.onEvent({ type: 'inexact', path: url.pathname, numbers }),
          );
          if (res.notUtf8) this.onEvent({ type: 'not-utf8', path: url.pathname });
          return body;
        } catch (err) {
          // A server may echo the key it was sent: its text never carries it further (errors-mask.ts).
          throw maskErrorSecrets(err, [this.apiKey]);
        }
      },
    );
  }

  private sendOptions(authenticated: boolean): SendOptions {
    this.agent ??= new HttpAgent({ proxy: this.proxy, timeoutMs: this.timeoutMs });
    const headers: Record<string, string> = {
      accept: 'application/json',
      // Pages of text shrink about tenfold; the size bound applies to the decoded body.
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': this.userAgent,
    };
    if (authenticated && this.apiKey !== undefined) headers['x-api-key'] = this.apiKey;
    return {
      agent: this.agent,
      headers,
      timeoutMs: this.timeoutMs,
      maxBytes: this.maxResponseBytes,
      signal: this.signal,
    };
  }

  private report(url: URL, status: number, ms: number): void {
    this.onEvent({
      type: 'response',
      path: url.pathname,
      query: url.search,
      status,
      ms,
      minuteRemaining: this.remaining('minute'),
    });
  }
}
