// One HTTP request and its whole answer over undici: one timeout over headers and body, a GET sent once more
// on a fresh connection when a kept-alive one turns out closed, and every failure as a typed error.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { readBody } from './body-reader.js';
import { tunnelsTo, type HttpAgent, type Route } from './http-agent.js';
import { RecallFeedError } from './api-errors.js';
import { portOf, proxyName } from './proxy.js';
import { describeFailure, isClosedConnection, proxyAuthError } from './transport-failures.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body held bytes that are not UTF-8, each read as U+FFFD (body-reader.ts); absent otherwise. */
  notUtf8?: true;
}

export interface SendOptions {
  agent: HttpAgent;
  /** GET unless said otherwise; a POST sends `body`. */
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The bound on the decoded body; beyond it the body is abandoned with ResponseTooLargeError. */
  maxBytes: number;
  /** Read the answer and keep none of it (a webhook needs only the status). */
  discardBody?: boolean;
  signal?: AbortSignal;
}

/** How far one attempt got: written on a connection (a tunnel, if any, open), and answered. */
interface Progress {
  started: boolean;
  answered: boolean;
}

/** The dispatcher with a note of when the request is written to its connection. */
function observed(dispatcher: Dispatcher, progress: Progress): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (opts, handler) =>
      dispatch(opts, {
        onRequestStart: (c, context) => {
          progress.started = true;
          handler.onRequestStart?.(c, context);
        },
        onRequestUpgrade: (c, status, headers, socket) => handler.onRequestUpgrade?.(c, status, headers, socket),
        onResponseStart: (c, status, headers, message) => handler.onResponseStart?.(c, status, headers, message),
        onResponseData: (c, chunk) => handler.onResponseData?.(c, chunk),
        onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
        onResponseError: (c, error) => handler.onResponseError?.(c, error),
      }),
  );
}

/**
 * undici's request, ended by `signal` even while it waits for a connection (through a proxy that never
 * answers CONNECT, undici would wait for that connection first). An answer that comes too late is dropped.
 */
function requestUntil(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    let done = false;
    const onAbort = () => {
      done = true;
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    dispatcher.request(options).then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        if (done) res.body.destroy();
        else resolve(res);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!done) reject(err);
      },
    );
  });
}

/** One attempt: the request, its status and its body read (decoded, bounded) or discarded. */
async function attempt(url: URL, route: Route, opts: SendOptions, signal: AbortSignal, progress: Progress) {
  const res = await requestUntil(
    observed(route.dispatcher, progress),
    {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      signal,
      // Backstops only: the caller's timeout below covers headers and body together.
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    },
    signal,
  );
  progress.answered = true;
  const body = res.body as unknown as Readable;
  // A plain request through a proxy: a 407 is the proxy's refusal, not an answer of the API's.
  if (res.statusCode === 407 && route.proxy && url.protocol === 'http:' && route.proxy.protocol === 'http:') {
    body.destroy();
    throw proxyAuthError(proxyName(route.proxy), url);
  }
  if (opts.discardBody) {
    await res.body.dump();
    return { status: res.statusCode, headers: res.headers, body: '' };
  }
  const { text, notUtf8 } = await readBody(body, res.statusCode, res.headers['content-encoding'], opts.maxBytes);
  const answer: RawResponse = { status: res.statusCode, headers: res.headers, body: text };
  if (notUtf8) answer.notUtf8 = true;
  return answer;
}

/** Sends one request and reads the whole answer as text (decoded); the timeout covers headers and body together. */
export async function send(url: URL, opts: SendOptions): Promise<RawResponse> {
  // One controller per request, fed by the timer and the caller's signal. Not AbortSignal.any: on
  // Node 20 it leaves an entry on the long-lived caller signal for every request (a slow leak in --watch).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, opts.timeoutMs);
  const onCallerAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (opts.signal?.aborted) onCallerAbort();
  let route: Route | undefined;
  let progress: Progress = { started: false, answered: false };
  const port = portOf(url);
  const authority = `${url.hostname}:${port}`;
  const tunnelsBefore = tunnelsTo(authority);
  try {
    route = await opts.agent.route(url);
    try {
      return await attempt(url, route, opts, controller.signal, progress);
    } catch (err) {
      // A kept-alive connection the server had closed: the GET never reached it, so it goes once more, on a
      // fresh connection, and counts as no retry. A POST might have been acted on: never sent twice here.
      const retry = (opts.method ?? 'GET') === 'GET' && progress.started && !progress.answered;
      if (!retry || controller.signal.aborted || !isClosedConnection(err)) throw err;
      progress = { started: false, answered: false };
      return await attempt(url, route, opts, controller.signal, progress);
    }
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (err instanceof RecallFeedError) throw err;
    const proxy = route?.proxy;
    // Until a tunnel opens, a failure (refused, a bad certificate, no answer in time) is the proxy's; once it
    // has, the API is the one that failed. A plain request through a proxy speaks only to the proxy.
    const tunnelled = url.protocol === 'https:' || proxy?.protocol === 'https:';
    const tunnelOpen = progress.started || tunnelsTo(authority) > tunnelsBefore;
    const theProxy = proxy && (!tunnelled || !tunnelOpen) ? `the proxy ${proxyName(proxy)}` : undefined;
    throw describeFailure(err, {
      target: url,
      port,
      who: theProxy ?? url.host,
      proxyName: proxy ? proxyName(proxy) : undefined,
      timedOut,
    });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
}
