// What a failed run does next is decided by the kind of error: resume it, retry the poll, or end the watch.
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InsecureTransportError,
  InvalidApiKeyError,
  InvalidParamsError,
  InvalidResponseError,
  MalformedApiKeyError,
  NotFoundError,
  RedirectError,
  ResponseTooLargeError,
  PaginationError,
  PermissionDeniedError,
  QuotaExhaustedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  ProxyAuthError,
  TlsError,
  UnauthorizedDataSourcesError,
  ValidationError,
  WaitTooLongError,
  WrongAddressError,
} from '../../src/api/api-errors.js';
import { isRefusal, isTransient } from '../../src/api/retry.js';
import { ConfigReadError, ConfigValueError } from '../../src/runtime/config/config-errors.js';
import {
  BusyError,
  CannotWriteError,
  InterruptedError,
  MissingApiKeyError,
  UnhealthyError,
  UsageError,
} from '../../src/runtime/cli-errors.js';
import { endsWatch, isInterrupt, isResumable } from '../../src/runtime/failure-policy.js';

const api = (status: number) => ({ status, code: 'x', message: 'm' });
const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });

// One row per kind: [error, resumable export, ends a watch].
const KINDS: [string, unknown, boolean, boolean][] = [
  ['a 5xx', new ServerError(api(500)), true, false],
  ['a 503', new ServiceUnavailableError(api(503)), true, false],
  ['a broken connection', new ConnectionError('reset', 'ECONNRESET'), true, false],
  ['a timeout', new TimeoutError('slow'), true, false],
  ['a cut body', new InvalidResponseError('cut', { retryable: true }), true, false],
  ['a body of the wrong shape', new InvalidResponseError('shape'), true, false],
  ['paging that broke its rules', new PaginationError('loop'), true, false],
  ['an answer over the size bound', new ResponseTooLargeError('too large', { limitBytes: 1 }), true, false],
  ['a 429', new RateLimitError(api(429)), true, false],
  [
    'a wait longer than --max-wait',
    new WaitTooLongError('long', { waitMs: 1, resetAt: new Date(0), limitType: 'minute' }),
    true,
    false,
  ],
  ['the spent monthly quota', new QuotaExhaustedError(api(429)), true, true],
  ['an unhealthy API', new UnhealthyError('down'), true, false],
  ['Ctrl-C', new InterruptedError('SIGINT'), true, false],
  ['an abort from a library', abort, true, false],
  ['a rejected key', new InvalidApiKeyError(api(401)), false, true],
  ['a 403', new PermissionDeniedError(api(403)), false, true],
  ['unauthorized data sources', new UnauthorizedDataSourcesError(api(403)), false, true],
  ['an unknown feed', new NotFoundError(api(404)), false, true],
  ['rejected parameters', new ValidationError(api(400)), false, true],
  ['bad parameters caught before sending', new InvalidParamsError('bad'), false, true],
  ['plain http to a remote host', new InsecureTransportError('http'), false, true],
  ['a key a header cannot carry', new MalformedApiKeyError('control characters'), false, true],
  ['a page that is not the API', new WrongAddressError(api(404)), false, true],
  ['a redirect', new RedirectError({ ...api(301), location: 'https://x.example/' }), false, true],
  ['a TLS handshake that cannot succeed', new TlsError('self-signed', 'certificate'), false, true],
  ['a proxy that wants other credentials', new ProxyAuthError('407'), false, true],
  ['a usage error', new UsageError('bad flag'), false, true],
  ['a bad config value', new ConfigValueError('bad'), false, true],
  ['no key at all', new MissingApiKeyError('none'), false, true],
  ['a file that cannot be written', new CannotWriteError('/x', 'read-only file system'), false, true],
  ['a busy lock', new BusyError('busy'), false, true],
  ['an unreadable config file', new ConfigReadError('/c', 'bad'), false, false],
  ['a bug', new TypeError('x is undefined'), false, false],
];

describe('failure policy', () => {
  it.each(KINDS)('%s: resumable %s, ends a watch %s', (_name, err, resumable, ends) => {
    expect(isResumable(err)).toBe(resumable);
    expect(endsWatch(err)).toBe(ends);
  });

  it('an interrupt is the signal reason or an AbortError, nothing else', () => {
    expect(isInterrupt(new InterruptedError('SIGTERM'))).toBe(true);
    expect(isInterrupt(abort)).toBe(true);
    expect(isInterrupt(new Error('aborted'))).toBe(false);
    expect(isInterrupt('SIGINT')).toBe(false);
  });
});

describe('isTransient and isRefusal', () => {
  it('only the spent quota is both: a rate limit worth resuming after the reset, and a refusal until then', () => {
    const both = KINDS.filter(([, err]) => isTransient(err) && isRefusal(err)).map(([name]) => name);
    expect(both).toEqual(['the spent monthly quota']);
  });
});
