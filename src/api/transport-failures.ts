// What undici (and Node's sockets and TLS under it) throws, as the client's typed errors with one plain line each.
import { ConnectionError, InvalidResponseError, ProxyAuthError, TimeoutError, TlsError } from './api-errors.js';

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

/** undici's own timeouts: a connection, the headers, a pause in the body. Ours usually fires first. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The connection closed before any answer came: undici's "other side closed", a reset, a broken pipe. */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  socket?: { bytesRead?: unknown };
}

function errorCode(err: unknown): string | undefined {
  let e = err as ErrorLike | undefined;
  // A proxy's certificate problem comes wrapped (UND_ERR_PRX_TLS): named by its cause.
  if (e?.code === 'UND_ERR_PRX_TLS' && e.cause) e = e.cause as ErrorLike;
  if (typeof e?.code !== 'string') return undefined;
  // A failed handshake is EPROTO with OpenSSL's reason inside the message: named as OpenSSL names it.
  const reason = e.code === 'EPROTO' && /:SSL routines:[^:]*:([a-z ]+):/.exec(String(e.message));
  return reason ? `ERR_SSL_${reason[1]!.toUpperCase().replace(/ /g, '_')}` : e.code;
}

/**
 * Whether a request failed because the connection it was sent on had been closed by the server, before any
 * answer: a keep-alive connection the server dropped as the request went out. A connection that never read
 * a byte (a fresh one the server refuses at once) is not that.
 */
export function isClosedConnection(err: unknown): boolean {
  const code = errorCode(err);
  if (code === undefined || !CLOSED_CODES.has(code)) return false;
  const bytesRead = (err as ErrorLike).socket?.bytesRead;
  return typeof bytesRead !== 'number' || bytesRead > 0;
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

/** What a proxy's refusal looks like in undici 7: a CONNECT answered other than 200, or a 407 to a plain request. */
function proxyRefusal(err: unknown, proxyName: string, target: URL, port: number): Error | undefined {
  const message = String((err as ErrorLike | undefined)?.message ?? '');
  const tunnel = /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling$/.exec(message);
  if (tunnel) {
    const refused = `the proxy ${proxyName} refused a tunnel to ${target.hostname}:${port}: it`;
    if (tunnel[1] === '407') return new ProxyAuthError(`${refused} asks for credentials (HTTP 407)`);
    return new ConnectionError(`${refused} answered HTTP ${tunnel[1]}`, 'PROXY_CONNECT');
  }
  if (message === 'Proxy Authentication Required (407)') return proxyAuthError(proxyName, target);
  return undefined;
}

/** A plain request the proxy refused with 407: its refusal, not an answer of the API's. */
export function proxyAuthError(proxyName: string, target: URL): ProxyAuthError {
  return new ProxyAuthError(
    `the proxy ${proxyName} refused a request to ${target.host}: it asks for credentials (HTTP 407)`,
  );
}

export interface FailureContext {
  target: URL;
  port: number;
  /** Who the failure is about, for its message: `the proxy host:port`, or the target's host. */
  who: string;
  /** The proxy in the way, if any (`host:port`). */
  proxyName: string | undefined;
  /** Whether our own timer ended the request. */
  timedOut: boolean;
}

/** Turns a transport failure into ConnectionError, TlsError, TimeoutError, ProxyAuthError or InvalidResponseError. */
export function describeFailure(err: unknown, ctx: FailureContext): Error {
  const { who } = ctx;
  const code = errorCode(err);
  if (ctx.timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return new TimeoutError(`no complete answer from ${who} within the timeout`);
  }
  const refusal = ctx.proxyName === undefined ? undefined : proxyRefusal(err, ctx.proxyName, ctx.target, ctx.port);
  if (refusal) return refusal;
  const tls = code === undefined ? undefined : tlsFailure(code, who);
  if (tls) return tls;
  if (code === 'ECONNREFUSED') return new ConnectionError(`connection refused by ${who}`, code);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ConnectionError(`cannot resolve ${who}`, code);
  // Larger headers than Node accepts (--max-http-header-size): a bad answer, not a broken connection.
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') {
    return new InvalidResponseError(`${who} answered with a header section larger than the client accepts (${code})`);
  }
  if (code?.startsWith('HPE_')) {
    return new ConnectionError(`${who} answered with something other than HTTP (${code})`, code);
  }
  if (code === 'UND_ERR_SOCKET') {
    return new ConnectionError(`connection to ${who} closed before the answer was complete`, code);
  }
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new ConnectionError(`the answer from ${who} was cut short (${code})`, code);
  }
  if (code && CONNECTION_CODES.has(code)) {
    return new ConnectionError(`connection to ${who} failed (${code})`, code);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ConnectionError(`request to ${who} failed: ${message}`, code);
}
