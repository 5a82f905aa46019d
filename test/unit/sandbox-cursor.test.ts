// Cursor encoding and decoding, and the timestamp keys the store sorts on.
import { describe, expect, it } from 'vitest';
import { timestampMicros } from '../../src/api/timestamps.js';
import { decodeCursor, encodeCursor } from '../../src/sandbox/cursor.js';

describe('cursor', () => {
  it('is standard base64 of compact JSON, and round-trips', () => {
    const c = { id: 109226, sort_by: 'updated_at' as const, sort_order: 'asc' as const, value: '2025-12-11T00:00:00' };
    const text = encodeCursor(c);
    expect(Buffer.from(text, 'base64').toString()).toBe(
      '{"id":109226,"sort_by":"updated_at","sort_order":"asc","value":"2025-12-11T00:00:00"}',
    );
    expect(text).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodeCursor(text)).toEqual({ ok: true, cursor: c });
  });

  it('accepts the documented id-only form', () => {
    expect(decodeCursor('eyJpZCI6MTIzfQ==')).toEqual({ ok: true, cursor: { id: 123 } });
  });

  it('turns spaces back into + (a raw + read as form data); its own cursors never contain + or /', () => {
    const foreign = Buffer.from('{"id":5,"note":">>>"}').toString('base64');
    expect(foreign).toContain('+');
    expect(decodeCursor(foreign.replace(/\+/g, ' '))).toEqual(decodeCursor(foreign));
    expect(decodeCursor(foreign).ok).toBe(false);
    const own = encodeCursor({
      id: 123456,
      sort_by: 'created_in_db_at',
      sort_order: 'asc',
      value: '2025-12-11T09:59:59.999999+00:00',
    });
    expect(own).not.toMatch(/[+/]/);
  });

  it.each([
    ['', 'not base64'],
    ['%%%', 'not base64'],
    ['abcde', 'not base64'],
    [Buffer.from('not json').toString('base64'), 'not a JSON cursor'],
    [Buffer.from('[1]').toString('base64'), 'not a JSON object'],
    [Buffer.from('{"id":"1"}').toString('base64'), 'missing integer id'],
    [Buffer.from('{"id":1.5}').toString('base64'), 'missing integer id'],
    [
      Buffer.from('{"id":1,"sort_by":"x","sort_order":"asc","value":"2025-01-01T00:00:00"}').toString('base64'),
      'unknown sort_by',
    ],
    [
      Buffer.from('{"id":1,"sort_by":"updated_at","sort_order":"up","value":"2025-01-01T00:00:00"}').toString('base64'),
      'unknown sort_order',
    ],
    [
      Buffer.from('{"id":1,"sort_by":"updated_at","sort_order":"asc","value":"soon"}').toString('base64'),
      'missing sort value',
    ],
  ])('rejects %j (%s)', (text, reason) => {
    expect(decodeCursor(text)).toEqual({ ok: false, reason });
  });
});

describe('timestampMicros', () => {
  it('reads naive values as UTC and keeps microseconds', () => {
    expect(timestampMicros('2025-12-11T00:00:00')).toBe(Date.parse('2025-12-11T00:00:00Z') * 1000);
    expect(timestampMicros('2025-12-11T00:00:00.123456+00:00')).toBe(
      Date.parse('2025-12-11T00:00:00Z') * 1000 + 123_456,
    );
    expect(timestampMicros('2025-12-11T01:00:00+01:00')).toBe(timestampMicros('2025-12-11T00:00:00Z'));
    expect(timestampMicros('2025-12-11')).toBe(timestampMicros('2025-12-11T00:00:00'));
    expect(timestampMicros('yesterday')).toBeNaN();
  });
});
