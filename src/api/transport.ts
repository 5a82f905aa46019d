// One HTTP request and its whole answer: keep-alive, a proxy where one is set, one timeout over headers
// and body, and every failure as a typed error.
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream/promises';
import { readBody } from './body-reader.js';
import type { Connections } from './connections.js';
import { ConnectionError, ProxyAuthError, RecallFeedError, TimeoutError, TlsError } from './api-errors.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code !== 'string') return undefined;
  // A failed handshake is EPROTO with OpenSSL's reason inside the message: named as OpenSSL names it.
  const reason = e.code === 'EPROTO' && /:SSL routines:[^:]*:([a-z ]+):/.exec(String(e.message));
  return reason ? `ERR_SSL_${reason[1]!.toUpperCase().replace(/ /g, '_')}` : e.code;
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

/** Turns what Node's http client throws into ConnectionError, TlsError or TimeoutError. */
function mapFailure(err: unknown, host: string, timedOut: boolean): Error {
  const code = errorCode(err);
  if (timedOut) return new TimeoutError(`no complete answer from ${host} within the timeout`);
  const tls = code === undefined ? undefined : tlsFailure(code, host);
  if (tls) return tls;
  if (code === 'ECONNREFUSED') return new ConnectionError(`connection refused by ${host}`, code);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ConnectionError(`cannot resolve ${host}`, code);
  if (code?.startsWith('HPE_'))
    return new ConnectionError(`${host} answered with something other than HTTP (${code})`, code);
  if (code && CONNECTION_CODES.has(code)) {
    return new ConnectionError(`connection to ${host} failed (${code})`, code);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ConnectionError(`request to ${host} failed: ${message}`, code);
}

export interface SendOptions {
  connections: Connections;
  /** GET unless said otherwise; a POST sends `body`. */
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The bound on the decoded body; beyond it the body is abandoned with ResponseTooLargeError. */
  maxBytes: number;
  /** Read the answer to its end and keep none of it (a webhook needs only the status). */
  discardBody?: boolean;
  signal?: AbortSignal;
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
  // Who a failure is about: the proxy when one was in the way, else the API's host.
  let via: string | undefined;
  try {
    const route = await opts.connections.route(url);
    via = route.via ?? route.tunnelVia;
    const headers = { ...opts.headers, ...(route.options.headers as Record<string, string> | undefined) };
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = route.request({ ...route.options, method: opts.method ?? 'GET', headers, signal: controller.signal });
      // Kept for the request's life: a socket error after the answer began is reported here too.
      req.on('error', reject);
      req.once('response', resolve);
      // Until a tunnel opens, a failure (refused, a bad certificate, no answer in time) is the proxy's;
      // once it has, the API is the one that failed.
      req.once('socket', () => (via = route.via));
      // A request still waiting for its connection (a CONNECT tunnel being opened) ignores its abort until
      // the connection comes, which from a proxy that never answers is never: the timeout ends it here.
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      req.end(opts.body);
    });
    const status = res.statusCode ?? 0;
    // Only a proxy answers 407: its refusal, as for a tunnel (connections.ts), not an answer of the API's.
    if (status === 407 && route.via !== undefined) {
      res.resume();
      throw new ProxyAuthError(`${route.via} refused a request to ${url.host}: it asks for credentials (HTTP 407)`);
    }
    if (opts.discardBody) {
      res.resume();
      await finished(res);
      return { status, headers: res.headers, body: '' };
    }
    const body = await readBody(res, status, res.headers['content-encoding'], opts.maxBytes);
    return { status, headers: res.headers, body };
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (err instanceof RecallFeedError) throw err;
    throw mapFailure(err, via ?? url.host, timedOut);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
}
