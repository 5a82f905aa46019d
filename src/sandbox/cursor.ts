// Feed cursors: standard base64 of compact JSON naming the last record's id, sort field, order and sort value.
import { SORT_FIELDS, SORT_ORDERS, type SortField, type SortOrder } from '../api/schemas.js';
import { timestampMicros } from '../api/timestamps.js';

/** What a cursor carries. `value` is the last record's raw sort-field value, exactly as sent. */
export interface CursorData {
  id: number;
  sort_by: SortField;
  sort_order: SortOrder;
  value: string;
}

/** A legacy cursor of the documented form `{"id":123}`: the store looks the record's sort value up. */
export interface IdOnlyCursor {
  id: number;
}

export type DecodedCursor = { ok: true; cursor: CursorData | IdOnlyCursor } | { ok: false; reason: string };

export function encodeCursor(c: CursorData): string {
  // Key order is fixed, and JSON.stringify adds no spaces: the same page always yields the same cursor.
  const json = JSON.stringify({ id: c.id, sort_by: c.sort_by, sort_order: c.sort_order, value: c.value });
  return Buffer.from(json, 'utf8').toString('base64');
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Decodes a cursor as received in a query string. A raw `+` arrives as a space after form decoding,
 * so spaces are turned back into `+` first.
 */
export function decodeCursor(raw: string): DecodedCursor {
  const text = raw.replace(/ /g, '+');
  if (!BASE64.test(text) || text.length % 4 === 1) return { ok: false, reason: 'not base64' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return { ok: false, reason: 'not a JSON cursor' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'not a JSON object' };
  }
  const o = parsed as Record<string, unknown>;
  if (typeof o.id !== 'number' || !Number.isSafeInteger(o.id)) return { ok: false, reason: 'missing integer id' };
  const keys = Object.keys(o);
  if (keys.length === 1) return { ok: true, cursor: { id: o.id } };
  if (!SORT_FIELDS.includes(o.sort_by as SortField)) return { ok: false, reason: 'unknown sort_by' };
  if (!SORT_ORDERS.includes(o.sort_order as SortOrder)) return { ok: false, reason: 'unknown sort_order' };
  if (typeof o.value !== 'string' || Number.isNaN(timestampMicros(o.value))) {
    return { ok: false, reason: 'missing sort value' };
  }
  return {
    ok: true,
    cursor: { id: o.id, sort_by: o.sort_by as SortField, sort_order: o.sort_order as SortOrder, value: o.value },
  };
}
