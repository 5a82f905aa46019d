// Catalogue rows' case keys: each row counted once however often it is offered, and the two warnings about them.
import { describe, expect, it } from 'vitest';
import { RowKeys } from '../../src/jobs/matching/open-cases.js';

const row = (line: number, sku: string) => ({ line, values: { sku, name: `row ${line}` } });

describe('RowKeys', () => {
  it('keys rows by their column, by line when it is empty, and counts each row once however many recalls it finds', () => {
    const keys = new RowKeys('sku');
    expect(keys.keyOf(row(2, ' A-1 '))).toBe('sku:A-1');
    expect(keys.keyOf(row(2, ' A-1 '))).toBe('sku:A-1');
    expect(keys.keyOf(row(3, ''))).toBe('line:3');
    expect(keys.keyOf(row(4, 'A-1'))).toBe('sku:A-1');
    expect(keys.keyOf(row(5, 'B'))).toBe('sku:B');
    expect(keys.keyOf(row(4, 'A-1'))).toBe('sku:A-1');
    expect(keys.keyOf(row(3, ''))).toBe('line:3');
    expect(keys.warnings(', among the rows that found a recall')).toEqual([
      '1 row has no sku: known by line number instead, among the rows that found a recall',
      '1 row shares a sku with an earlier row: they share its cases, among the rows that found a recall',
    ]);
  });

  it('says nothing when every row found has a key of its own, and never warns without a key column', () => {
    const keys = new RowKeys('sku');
    keys.keyOf(row(2, 'A'));
    keys.keyOf(row(3, 'B'));
    expect(keys.warnings()).toEqual([]);
    const none = new RowKeys(undefined);
    expect(none.keyOf(row(7, 'A'))).toBe('line:7');
    expect(none.warnings()).toEqual([]);
  });
});
