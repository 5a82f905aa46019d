// The keys of a catalogue that streams: worked out as its rows find recalls, and rowKeys' warnings said over those rows.
import { describe, expect, it } from 'vitest';
import { OfferedKeys } from '../../src/jobs/matching/open-cases.js';

const row = (line: number, sku: string) => ({ line, values: { sku, name: `row ${line}` } });

describe('OfferedKeys', () => {
  it('keys rows by their column, by line when it is empty, and counts each row once however many recalls it finds', () => {
    const keys = new OfferedKeys('sku');
    expect(keys.keyOf(row(2, ' A-1 '))).toBe('sku:A-1');
    expect(keys.keyOf(row(2, ' A-1 '))).toBe('sku:A-1');
    expect(keys.keyOf(row(3, ''))).toBe('line:3');
    expect(keys.keyOf(row(4, 'A-1'))).toBe('sku:A-1');
    expect(keys.keyOf(row(5, 'B'))).toBe('sku:B');
    expect(keys.keyOf(row(4, 'A-1'))).toBe('sku:A-1');
    expect(keys.keyOf(row(3, ''))).toBe('line:3');
    expect(keys.warnings()).toEqual([
      '1 row has no sku: known by line number instead, among the rows that found a recall',
      '1 row shares a sku with another row: they share its cases, among the rows that found a recall',
    ]);
  });

  it('says nothing when every row found has a key of its own, and never warns without a key column', () => {
    const keys = new OfferedKeys('sku');
    keys.keyOf(row(2, 'A'));
    keys.keyOf(row(3, 'B'));
    expect(keys.warnings()).toEqual([]);
    const none = new OfferedKeys(undefined);
    expect(none.keyOf(row(7, 'A'))).toBe('line:7');
    expect(none.warnings()).toEqual([]);
  });
});
