// RecallFeedClient: the typed library the CLI runs on. Paces, retries and pages; never prints.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { errorFromResponse } from './error-mapping.js';
import {
  InsecureTransportError,
  InvalidParamsError,
  InvalidResponseError,
  QuotaExhaustedError,
  RateLimitError,
  WaitTooLongError,
} from './errors.js';
import { paginate, type PagedResult } from './pagination.js';
import { Pacer, type PacingOverrides, type WindowName } from './pacing.js';
import { backoffMs, isRetryable, nextMonthlyReset, rateLimitWaitMs } from './retry.js';
import {
  CustomFeedResponseSchema,
  FeedResponseSchema,
  HealthResponseSchema,
  SourcesResponseSchema,
  type CustomRecord,
  type FeedPage,
  type FeedParams,
  type HealthResponse,
  type RateLimitInfo,
  type Recall,
  type SourcesResponse,
} from './schemas.js';
import { createDispatcher, send, type ProxySettings, type RawResponse } from './transport.js';
import { feedQuery, validateCustomName } from './params.js';
import { isLoopbackHost } from './loopback.js';
import { sleep } from './sleep.js';
import { DEFAULT_BASE_URL, DEFAULT_MAX_WAIT_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './constants.js';


/** What the client reports while it works; the CLI turns these into --verbose lines and countdowns. */
export type ClientEvent =
  | { type: 'response'; path: string; query: string; status: number; ms: number; minuteRemaining: number }
  | { type: 'wait'; reason: 'pacing'; ms: number; window: WindowName }
  | { type: 'wait'; reason: 'rate_limit'; ms: number; limitType: string; resetAt: Date }
  | { type: 'wait'; reason: 'retry'; ms: number; attempt: number; error: Error };

export interface ClientOptions {
  apiKey?: string;
  baseUrl?: string;
  /** Per request, headers and body together. Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Retries of transient failures (5xx, connection, timeout, cut body). Default {@link DEFAULT_RETRIES}. */
  retries?: number;
  /** The longest single wait for a rate limit before giving up with WaitTooLongError. Default {@link DEFAULT_MAX_WAIT_MS}. */
  maxWaitMs?: number;
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
  dispatcher?: Dispatcher;
}

export interface HealthResult {
  healthy: boolean;
  httpStatus: number;
  latencyMs: number;
  body: HealthResponse | undefined;
}

/** At most this many 429s in a row for one request; each wait must also fit maxWaitMs. */
const MAX_RATE_LIMIT_RETRIES = 20;

/** A body that is not complete JSON (cut short, an HTML page) is a transient failure worth a retry. */
function parseJson(res: RawResponse): unknown {
  try {
    return JSON.parse(res.body);
  } catch {
    throw new InvalidResponseError('the API answered with a body that is not complete JSON', {
      status: res.status,
      retryable: true,
    });
  }
}

export class RecallFeedClient {
  readonly baseUrl: URL;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly maxWaitMs: number;
  private readonly userAgent: string;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly onEvent: (event: ClientEvent) => void;
  private readonly signal: AbortSignal | undefined;
  private readonly pacer: Pacer;
  private readonly proxy: ProxySettings | undefined;
  private dispatcher: Dispatcher | undefined;
  private readonly ownsDispatcher: boolean;
  /** The rate_limit block of the latest feed page. */
  lastRateLimit: RateLimitInfo | undefined;

  constructor(opts: ClientOptions = {}) {
    let base: URL;
    try {
      base = new URL(opts.baseUrl ?? DEFAULT_BASE_URL);
    } catch {
      throw new InvalidParamsError(`invalid base URL: ${opts.baseUrl}`);
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') {
      throw new InvalidParamsError(`the base URL must be http or https, not ${base.protocol}`);
    }
    if (base.protocol === 'http:' && opts.apiKey && !isLoopbackHost(base.hostname) && !opts.allowInsecureHttp) {
      throw new InsecureTransportError(`refusing to send the API key over plain http to ${base.host}`);
    }
    this.baseUrl = base;
    this.apiKey = opts.apiKey;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = opts.retries ?? DEFAULT_RETRIES;
    this.maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.userAgent = opts.userAgent ?? 'recall-feed';
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? sleep;
    this.random = opts.random ?? Math.random;
    this.onEvent = opts.onEvent ?? (() => {});
    this.signal = opts.signal;
    this.pacer = new Pacer(opts.pacing);
    this.proxy = opts.proxy;
    this.dispatcher = opts.dispatcher;
    this.ownsDispatcher = opts.dispatcher === undefined;
  }

  /** Every recall in the window, following every cursor. */
  async *feed(params: FeedParams = {}): AsyncGenerator<Recall> {
    for await (const page of this.feedPages(params)) yield* page.data;
  }

  /** Page by page, with each page's pagination, meta, rate_limit and data_sources. */
  feedPages(params: FeedParams = {}): AsyncGenerator<PagedResult<Recall>> {
    const query = feedQuery(params);
    return paginate((cursor) => this.getPage('/v1/recalls/feed', query, cursor, FeedResponseSchema), params.cursor);
  }

  /** An enterprise feed `/v1/recalls/feed/<name>`; its records pass through whatever their shape. */
  async *customFeed(name: string, params: FeedParams = {}): AsyncGenerator<CustomRecord> {
    for await (const page of this.customFeedPages(name, params)) yield* page.data;
  }

  customFeedPages(name: string, params: FeedParams = {}): AsyncGenerator<PagedResult<CustomRecord>> {
    validateCustomName(name);
    const query = feedQuery(params);
    const path = `/v1/recalls/feed/${name}`;
    return paginate((cursor) => this.getPage(path, query, cursor, CustomFeedResponseSchema), params.cursor);
  }

  async sources(): Promise<SourcesResponse> {
    const json = await this.call('/v1/recalls/sources', new URLSearchParams(), true);
    return this.parse(json, SourcesResponseSchema);
  }

  /** GET /health without a key and without retries: a probe reports the state as it is now. */
  async health(): Promise<HealthResult> {
    const started = this.now();
    const url = new URL('/health', this.baseUrl);
    const res = await send(url, this.sendOptions(false));
    const latencyMs = this.now() - started;
    this.report(url, res.status, latencyMs);
    let body: HealthResponse | undefined;
    try {
      const parsed = HealthResponseSchema.safeParse(parseJson(res));
      body = parsed.success ? parsed.data : undefined;
    } catch {
      body = undefined; // an HTML error page from a proxy is simply "not healthy"
    }
    if (res.status >= 200 && res.status < 300 && !body) {
      throw new InvalidResponseError('the health check answered with a body that is not the expected JSON', {
        status: res.status,
      });
    }
    const healthy = res.status >= 200 && res.status < 300 && body?.status === 'healthy';
    return { healthy, httpStatus: res.status, latencyMs, body };
  }

  /** Requests still allowed in the client's own minute window. */
  minuteRemaining(): number {
    return this.pacer.remaining('minute', this.now());
  }

  async close(): Promise<void> {
    if (this.dispatcher && this.ownsDispatcher) await this.dispatcher.close();
    this.dispatcher = undefined;
  }

  private async getPage<S extends typeof FeedResponseSchema | typeof CustomFeedResponseSchema>(
    path: string,
    query: URLSearchParams,
    cursor: string | undefined,
    schema: S,
  ): Promise<FeedPage<z.infer<S>['data'][number]>> {
    const q = new URLSearchParams(query);
    if (cursor !== undefined) q.set('cursor', cursor);
    const json = await this.call(path, q, true);
    const page = this.parse(json, schema) as FeedPage<z.infer<S>['data'][number]>;
    // Keep the records exactly as sent (field order, unknown fields): zod rebuilt them in schema order.
    page.data = (json as { data: z.infer<S>['data'] }).data;
    this.pacer.update(page.rate_limit);
    this.lastRateLimit = page.rate_limit;
    return page;
  }

  private parse<T>(json: unknown, schema: z.ZodType<T>): T {
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'body';
      throw new InvalidResponseError(`the API's answer does not match the spec at ${where}: ${issue?.message}`);
    }
    return parsed.data;
  }

  /** One logical request: pacing, then the request, retried on transient failures and 429s. Returns the parsed body. */
  private async call(path: string, query: URLSearchParams, authenticated: boolean): Promise<unknown> {
    const url = new URL(path, this.baseUrl);
    url.search = query.toString();
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      await this.pace();
      const started = this.now();
      try {
        let res: RawResponse;
        try {
          res = await send(url, this.sendOptions(authenticated));
        } finally {
          // A request that timed out or was cut may still have been counted by the server.
          this.pacer.record(this.now());
        }
        this.report(url, res.status, this.now() - started);
        if (res.status < 200 || res.status >= 300) throw errorFromResponse(res.status, res.body, res.headers);
        return parseJson(res);
      } catch (err) {
        if (this.signal?.aborted) throw err;
        if (err instanceof RateLimitError && !(err instanceof QuotaExhaustedError)) {
          rateLimited++;
          if (rateLimited > MAX_RATE_LIMIT_RETRIES) throw err;
          await this.waitForReset(err);
          continue;
        }
        if (!isRetryable(err) || failures >= this.retries) throw err;
        const ms = backoffMs(failures, this.random);
        failures++;
        this.onEvent({ type: 'wait', reason: 'retry', ms, attempt: failures, error: err as Error });
        await this.sleep(ms, this.signal);
      }
    }
  }

  private async pace(): Promise<void> {
    const now = this.now();
    if (this.lastRateLimit && this.lastRateLimit.remaining_credits <= 0) {
      const resetAt = nextMonthlyReset(now);
      throw new QuotaExhaustedError({
        status: 429,
        code: 'monthly_quota_used',
        message: `the monthly quota of ${this.lastRateLimit.monthly_quota ?? 'this key'} requests is used up`,
        details: { limit_type: 'month', limit: this.lastRateLimit.monthly_quota ?? 0, reset_at: resetAt.toISOString() },
      });
    }
    const { ms, window } = this.pacer.delay(now);
    if (ms <= 0) return;
    await this.waitWithinLimit(ms, now, window, `the ${window} limit allows the next request only in`, {
      type: 'wait',
      reason: 'pacing',
      ms,
      window,
    });
  }

  private async waitForReset(err: RateLimitError): Promise<void> {
    const now = this.now();
    const ms = rateLimitWaitMs(err, now, this.random);
    const limitType = err.limitType ?? 'rate';
    const event: ClientEvent = { type: 'wait', reason: 'rate_limit', ms, limitType, resetAt: new Date(now + ms) };
    await this.waitWithinLimit(ms, now, limitType, `the ${limitType} limit resets only in`, event, err);
  }

  /** Sleeps for a rate limit, or gives up with WaitTooLongError when the wait exceeds maxWaitMs. */
  private async waitWithinLimit(
    ms: number,
    now: number,
    limitType: string,
    what: string,
    event: ClientEvent,
    cause?: RateLimitError,
  ): Promise<void> {
    if (ms > this.maxWaitMs) {
      throw new WaitTooLongError(`${what} ${Math.ceil(ms / 1000)} s`, {
        waitMs: ms,
        resetAt: new Date(now + ms),
        limitType,
        cause,
      });
    }
    this.onEvent(event);
    await this.sleep(ms, this.signal);
  }

  private sendOptions(authenticated: boolean) {
    this.dispatcher ??= createDispatcher(this.proxy);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (authenticated && this.apiKey !== undefined) headers['x-api-key'] = this.apiKey;
    return { dispatcher: this.dispatcher, headers, timeoutMs: this.timeoutMs, signal: this.signal };
  }

  private report(url: URL, status: number, ms: number): void {
    this.onEvent({
      type: 'response',
      path: url.pathname,
      query: url.search,
      status,
      ms,
      minuteRemaining: this.minuteRemaining(),
    });
  }
}
