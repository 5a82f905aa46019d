// FastAPI's own error forms, which the API (HTTPException(detail=...)) may send beside its documented envelope:
// `{"detail": "<text>"}` and a 422's `{"detail": [{"loc": [...], "msg": ...}]}`.
import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError, WrongAddressError } from '../../src/api/api-errors.js';
import { errorFromResponse } from '../../src/api/error-mapping.js';
import { refusesCursor } from '../../src/api/pagination.js';

describe('{"detail": "<text>"}', () => {
  it("a 404 with other words under a custom feed's path is the API saying there is no such feed (NotFoundError)", () => {
    const url = new URL('https://api.example/v1/recalls/feed/shein');
    const e = errorFromResponse(404, '{"detail":"Unknown custom feed shein"}', {}, url);
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e).not.toBeInstanceOf(WrongAddressError);
    expect(e.message).toBe('Unknown custom feed shein');
    expect(e.status).toBe(404);
    expect(e.code).toBe('http_404');
  });

  it('FastAPI\'s bare "Not Found" there too is no route (a base URL that is a feed\'s address, a doubled /v1)', () => {
    for (const path of [
      '/v1/recalls/feed/shein',
      '/v1/recalls/feed/demo/v1/recalls/feed/shein',
      '/v1/v1/recalls/feed/shein',
    ]) {
      const e = errorFromResponse(404, '{"detail":"Not Found"}', {}, new URL(`https://api.example${path}`));
      expect(e, path).toBeInstanceOf(WrongAddressError);
    }
    // The API's own envelope on a path that is not a feed's (the base URL a feed's address) is a wrong address too.
    const envelope = '{"detail":{"error":"not_found","message":"No such endpoint"}}';
    // A gateway's own prefix may end in /v1: its custom feed's 404 in the API's words stays an unknown feed.
    const gateway = errorFromResponse(
      404,
      envelope,
      {},
      new URL('https://gw.example/recall-api/v1/v1/recalls/feed/shein'),
    );
    expect(gateway).toBeInstanceOf(NotFoundError);
    expect(gateway).not.toBeInstanceOf(WrongAddressError);
    const doubled = errorFromResponse(
      404,
      envelope,
      {},
      new URL('https://api.example/v1/recalls/feed/demo/v1/recalls/feed'),
    );
    expect(doubled).toBeInstanceOf(WrongAddressError);
  });

  it('FastAPI\'s "Not Found" elsewhere is no route at this address: a wrong --base-url (WrongAddressError)', () => {
    for (const path of ['/v1/recalls/sources', '/api/v1/recalls/feed', '/v1/recalls/feed']) {
      const url = new URL(`https://gw.example${path}`);
      const e = errorFromResponse(404, '{"detail":"Not Found"}', {}, url);
      expect(e, path).toBeInstanceOf(WrongAddressError);
      expect(e.message).toBe(
        `HTTP 404 for https://gw.example${path}, and not from the API: no API answers at this address`,
      );
    }
    // Another 404 in the API's words off a custom feed's path is no endpoint at this address either, in its words.
    const other = errorFromResponse(
      404,
      '{"detail":"Recall 12 not found"}',
      {},
      new URL('https://gw.example/v1/recalls/12'),
    );
    expect(other).toBeInstanceOf(WrongAddressError);
    expect(other.message).toBe(
      'HTTP 404 for https://gw.example/v1/recalls/12: no API endpoint at this address (the server said: Recall 12 not found)',
    );
    // Under a custom feed's path it stays the API's answer.
    const feed = errorFromResponse(
      404,
      '{"detail":"Unknown custom feed"}',
      {},
      new URL('https://gw.example/v1/recalls/feed/x'),
    );
    expect(feed).toBeInstanceOf(NotFoundError);
    expect(feed).not.toBeInstanceOf(WrongAddressError);
    expect(feed.message).toBe('Unknown custom feed');
  });

  it('any other status keeps its class by status, with the text as the message', () => {
    const e = errorFromResponse(400, '{"detail":"limit must be at most 500"}');
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('limit must be at most 500');
  });
});

describe('a 422 list of validation errors', () => {
  it('says each item as `parameter: msg`, and names the first parameter in details', () => {
    const body = {
      detail: [{ type: 'value_error', loc: ['query', 'cursor'], msg: 'cursor expired', input: 'eyJ9' }],
    };
    const e = errorFromResponse(422, JSON.stringify(body));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('cursor: cursor expired');
    expect(e.details).toEqual({ parameter: 'cursor' });
    expect(refusesCursor(e, 'eyJ9')).toBe(true);
  });

  it('several items are joined; a loc past the parameter is kept; one without loc is its msg alone', () => {
    const body = {
      detail: [
        { loc: ['query', 'limit'], msg: 'Input should be less than or equal to 500' },
        { loc: ['body', 'filters', 0], msg: 'Field required' },
        { msg: 'Something else' },
      ],
    };
    const e = errorFromResponse(422, JSON.stringify(body));
    expect(e.message).toBe(
      'limit: Input should be less than or equal to 500; filters.0: Field required; Something else',
    );
    expect(e.details).toEqual({ parameter: 'limit' });
    expect(refusesCursor(e, 'c')).toBe(false);
  });

  it("a list that is not FastAPI's (items without a text msg) is not read as one", () => {
    expect(errorFromResponse(422, '{"detail":[{"loc":["query","x"]}]}').message).toBe('HTTP 422 from the API');
    expect(errorFromResponse(404, '{"detail":[1]}')).toBeInstanceOf(WrongAddressError);
  });
});
