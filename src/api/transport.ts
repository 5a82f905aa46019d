// One HTTP GET over undici: keep-alive, proxy from the environment, a timeout over headers and body, typed failures.
import type { Readable } from 'node:stream';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { readBody } from './body-reader.js';
import { ConnectionError, RecallFeedError, TimeoutError, TlsError } from './errors.js';

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Loopback never goes through a proxy: the sandbox must work behind a corporate HTTP_PROXY. */
const LOOPBACK_NO_PROXY = 'localhost,127.0.0.1,::1';

export function createDispatcher(proxy: ProxySettings = {}): Dispatcher {
  const noProxy = [proxy.noProxy, LOOPBACK_NO_PROXY].filter(Boolean).join(',');
  // Passing every field stops EnvHttpProxyAgent from reading process.env itself.
  return new EnvHttpProxyAgent({
    httpProxy: proxy.httpProxy ?? '',
    httpsProxy: proxy.httpsProxy ?? proxy.httpProxy ?? '',
    noProxy,
  });
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

/** Certificate verdicts worth their own words; any other certificate code is named as it is. */
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate was issued by an authority this machine does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate cannot be verified',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another host name',
  HOSTNAME_MISMATCH: 'its certificate is for another host name',
};

/** OpenSSL's own text is long and raw: a TLS failure gets one plain sentence naming the code. */
function tlsFailure(code: string, host: string): TlsError | undefined {
  const problem = CERTIFICATE_PROBLEMS[code];
  if (problem || /CERT|CRL|^UNABLE_TO_|^INVALID_(CA|PURPOSE)$|^PATH_LENGTH_EXCEEDED$/.test(code)) {
    return new TlsError(
      `cannot connect securely to ${host}: ${problem ?? `its certificate is not accepted (${code})`}`,
      'certificate',
      code,
    );
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    return new TlsError(`cannot connect securely to ${host}: it does not answer in TLS (${code})`, 'protocol', code);
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
    return new TlsError(`cannot connect securely to ${host}: the TLS handshake failed (${code})`, 'protocol', code);
  }
  return undefined;
}

/** Turns what undici throws into ConnectionError, TlsError or TimeoutError. */
function mapFailure(err: unknown, host: string, timedOut: boolean): Error {
  const code = errorCode(err);
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`no complete answer from ${host} within the timeout`);
  }
  const tls = code === undefined ? undefined : tlsFailure(code, host);
  if (tls) return tls;
  if (code === 'ECONNREFUSED') return new ConnectionError(`connection refused by ${host}`, code);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ConnectionError(`cannot resolve ${host}`, code);
  if (code && CONNECTION_CODES.has(code)) {
    return new ConnectionError(`connection to ${host} failed (${code})`, code);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ConnectionError(`request to ${host} failed: ${message}`, code);
}

export interface SendOptions {
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The bound on the decoded body; beyond it the body is abandoned with ResponseTooLargeError. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** GETs `url` and reads the whole body as text (decoded); the timeout covers headers and body together. */
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
  const signal = controller.signal;
  try {
    const res = await request(url, {
      method: 'GET',
      headers: opts.headers,
      dispatcher: opts.dispatcher,
      signal,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    const body = await readBody(res.body as Readable, res.statusCode, res.headers['content-encoding'], opts.maxBytes);
    return { status: res.statusCode, headers: res.headers, body };
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (err instanceof RecallFeedError) throw err;
    throw mapFailure(err, url.host, timedOut);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
}
