// Where requests go and what they carry: the base URL (its path kept as a prefix), each endpoint's URL,
// and the checks that refuse a key before it could travel badly. Checked once, when a client is built.
import { InsecureTransportError, InvalidParamsError, MalformedApiKeyError } from './api-errors.js';
import { isLoopbackHost } from './loopback.js';

/** The base URL, refused when it is not http(s), or plain http to another host with a key (unless allowed). */
export function checkBaseUrl(raw: string, apiKey: string | undefined, allowInsecureHttp: boolean): URL {
  let base: URL;
  try {
    base = new URL(raw);
  } catch {
    throw new InvalidParamsError(`invalid base URL: ${raw}`);
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new InvalidParamsError(`the base URL must be http or https, not ${base.protocol}`);
  }
  // The key is the API's only credential: a user or password in the address would never be sent.
  if (base.username !== '' || base.password !== '') {
    throw new InvalidParamsError('the base URL holds a user name or password, which the client never sends');
  }
  if (base.protocol === 'http:' && apiKey && !isLoopbackHost(base.hostname) && !allowInsecureHttp) {
    throw new InsecureTransportError(`refusing to send the API key over plain http to ${base.host}`);
  }
  return base;
}

/** A key an HTTP header cannot carry is refused before any request; the message never quotes it. */
export function checkApiKey(key: string): string {
  const codes = Array.from(key, (ch) => ch.codePointAt(0) as number);
  if (codes.some((c) => c < 0x20 || c === 0x7f)) {
    throw new MalformedApiKeyError('the API key contains control characters (a pasted line break or tab?)');
  }
  // A header could carry it, but no key holds one: `config set` refuses it, and so does every other way in.
  if (codes.includes(0x20)) throw new MalformedApiKeyError('the API key contains a space (two values pasted as one?)');
  if (codes.some((c) => c > 0x7e)) {
    throw new MalformedApiKeyError(
      'the API key contains characters other than printable ASCII, which a header cannot carry',
    );
  }
  return key;
}

/** `path` under the base URL's own path, so that a gateway's prefix (`https://gw.example/api`) is kept. */
export function endpointUrl(base: URL, path: string, query?: URLSearchParams): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  url.search = query?.toString() ?? '';
  url.hash = '';
  return url;
}
