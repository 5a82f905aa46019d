// errorFromResponse for statuses the API does not list: never the bare ApiError (exit 1, a bug).
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError, ValidationError, WrongAddressError } from '../../src/api/api-errors.js';
import { errorFromResponse } from '../../src/api/error-mapping.js';
import { refusesCursor } from '../../src/api/pagination.js';
import { isRetryable } from '../../src/api/retry.js';
import { describeError } from '../../src/runtime/error-reports.js';

const feedUrl = (query: string) => new URL(`http://127.0.0.1:9/v1/recalls/feed?${query}`);

describe('a request too large for the server (413, 414, 431)', () => {
  it('is a validation error naming its long parameter, which a cursor check recognises', () => {
    const cursor = 'A'.repeat(20_000);
    const err = errorFromResponse(431, '', {}, feedUrl(`limit=100&cursor=${cursor}`));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('HTTP 431: the request is too large for the server (its cursor is 20000 characters long)');
    expect(err.details).toEqual({ parameter: 'cursor', length: 20000 });
    expect(refusesCursor(err, cursor)).toBe(true);
    expect(describeError(err)).toEqual({
      code: 2,
      message:
        'the API rejected the request: HTTP 431: the request is too large for the server (its cursor is 20000 characters long)',
      hints: ['give --cursor a next_cursor the API sent, or leave it out to start from the first page'],
    });
  });

  it('names the whole request when no parameter is long; the API help comes first when it gives one', () => {
    const err = errorFromResponse(414, '<html>URI Too Long</html>', {}, feedUrl('limit=100'));
    expect(err).toBeInstanceOf(ValidationError);
    expect(describeError(err)).toEqual({
      code: 2,
      message: 'the API rejected the request: HTTP 414: the request is too large for the server',
      hints: ['shorten what the request carries: --cursor, the --sources list or the API key'],
    });
    const said = errorFromResponse(413, '{"detail":{"error":"too_big","message":"too big","help":"send less"}}');
    expect(describeError(said)).toEqual({
      code: 2,
      message: 'the API rejected the request: too big',
      hints: ['send less'],
    });
  });
});

describe('other statuses', () => {
  it('a 408 is transient: retried, exit 6', () => {
    const err = errorFromResponse(408, '');
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(isRetryable(err)).toBe(true);
    expect(describeError(err).code).toBe(6);
  });

  it.each([405, 409, 410, 418, 421, 426, 451, 499])('a %i is no answer of the API: exit 7', (status) => {
    const err = errorFromResponse(status, 'whatever');
    expect(err).toBeInstanceOf(WrongAddressError);
    expect(err.message).toBe(`HTTP ${status} from the API`);
    expect(describeError(err).code).toBe(7);
  });
});
