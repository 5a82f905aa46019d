// Doctor's answer when the key's sources call fails, by the client's typed error: only a 401 says the key was refused;
// a spent monthly quota fails the quota check with its reset; anything else is the API's, the network's or a
// permission's failure, named so with a hint of its own, and the key is left unknown.
import {
  ConnectionError,
  InvalidApiKeyError,
  InvalidResponseError,
  PermissionDeniedError,
  ProxyAuthError,
  QuotaExhaustedError,
  RateLimitError,
  RecallFeedError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  TlsError,
  WaitTooLongError,
} from '../../api/api-errors.js';
import { nextMonthlyReset } from '../../api/retry.js';
import { describeError } from '../../runtime/error-reports.js';
import { type CheckResult, fail, ok, skip, warn } from './check.js';

export const STORE_KEY_HINT = 'store a key with `recall-feed config set api-key` (reads stdin)';

/** Which check a failure of the call is, and its hint when the error table has none for it. */
function kindOf(err: RecallFeedError): { name: 'api' | 'network' | 'permission'; hint: string } {
  if (err instanceof PermissionDeniedError)
    return { name: 'permission', hint: 'ask the operator what the key may use' };
  if (err instanceof ConnectionError || err instanceof TimeoutError || err instanceof TlsError)
    return { name: 'network', hint: 'check the network, and the proxy if one is set, then run doctor again' };
  if (err instanceof ProxyAuthError) return { name: 'network', hint: 'check the proxy' };
  if (err instanceof ServerError || err instanceof ServiceUnavailableError)
    return { name: 'api', hint: 'the API reports trouble; try again later' };
  if (err instanceof InvalidResponseError)
    return { name: 'api', hint: "the answer is not the API's: check --base-url, and any proxy or gateway in between" };
  return { name: 'api', hint: 'run doctor again with -v to see the request and its answer' };
}

/**
 * The key, quota and cause checks for a sources call that threw `err` (`keySource`: where the key came from). What is
 * not the client's own error (an interrupt, a bug) is thrown again.
 */
export function sourcesFailure(err: unknown, keySource: string, now: number): CheckResult[] {
  if (!(err instanceof RecallFeedError)) throw err;
  if (err instanceof InvalidApiKeyError)
    return [fail('key', `refused: ${err.message}`, STORE_KEY_HINT), skip('quota', 'the key was refused')];
  // A rate limit is counted per key: the API knew this one.
  const accepted = (why: string) => ok('key', `accepted (${keySource}); its sources not listed: ${why}`);
  if (err instanceof QuotaExhaustedError || (err instanceof WaitTooLongError && err.limitType === 'month')) {
    const reset = err.resetAt ?? nextMonthlyReset(now);
    return [
      accepted('the monthly quota is spent'),
      fail(
        'quota',
        `the monthly quota is spent: ${err.message}; it resets on ${reset.toISOString()}`,
        'ask the operator for a higher quota, or wait for the reset',
      ),
    ];
  }
  const report = describeError(err);
  const hint = report.hints[0];
  if (err instanceof RateLimitError || err instanceof WaitTooLongError)
    return [
      accepted('rate limited'),
      warn('quota', report.message, hint ?? "another run is spending the key's requests: run doctor after the reset"),
    ];
  const kind = kindOf(err);
  return [
    fail(kind.name, `the sources call: ${report.message}`, hint ?? kind.hint),
    skip('key', `unknown: the sources call failed (see the ${kind.name} check)`),
    skip('quota', 'the sources call failed'),
  ];
}
