// FilterCoverage: its `keep` gives the filter's verdict while noting, field by field, which wanted values matched nothing.
import { describe, expect, it } from 'vitest';
import { FilterCoverage } from '../../src/filters/filter-coverage.js';

const records: Record<string, unknown>[] = [
  { id: 1, risk_severity: 'Serious', risk_types: ['fire'], product_brand: 'Côté Cuisine', alert_title: 'Radiateur' },
  { id: 2, risk_severity: 'high', risk_types: ['choking', 'fire'], product_brand: 'Kidzone', alert_title: 'Plush' },
  { id: 3, risk_severity: 'serious', risk_types: ['burn'], product_brand: 'Kidzone', alert_title: 'Kettle' },
  { id: 4, risk_types: 'fire', alert_title: 'Lamp' },
];

const kept = (c: FilterCoverage) => records.filter((r) => c.keep(r)).map((r) => r.id);

describe('FilterCoverage', () => {
  it('keeps what matches every field, whole values for lists and substrings for text, without case or accents', () => {
    expect(kept(new FilterCoverage({ severity: ['SERIOUS'], brand: 'cote' }))).toEqual([1]);
    expect(kept(new FilterCoverage({ risk: ['fire'], brand: 'kid' }))).toEqual([2]);
    expect(kept(new FilterCoverage({ risk: ['fire', 'burn'] }))).toEqual([1, 2, 3, 4]);
    expect(kept(new FilterCoverage({ grep: 'kettle' }))).toEqual([3]);
    expect(kept(new FilterCoverage({}))).toEqual([1, 2, 3, 4]);
  });

  it('names a list value seen nowhere, with the values seen most frequent first, whatever the other fields did', () => {
    const c = new FilterCoverage({ severity: ['seroius', 'high'], brand: 'nothing-like-it' });
    expect(kept(c)).toEqual([]);
    expect(c.unmatched()).toEqual([
      // Severity named folded, as stats and digest show it: Serious and serious are one value, held twice.
      { name: 'severity', value: 'seroius', seen: ['serious', 'high'] },
      { name: 'brand', value: 'nothing-like-it' },
    ]);
    expect(c.messages()[0]).toBe('--severity seroius matched no recall of the 4 looked at; values seen: serious, high');
  });

  it('counts a text filter as matched when it hit a record another field turned away', () => {
    const c = new FilterCoverage({ severity: ['typo'], brand: 'kidzone', grep: 'lamp' });
    expect(kept(c)).toEqual([]);
    expect(c.unmatched().map((u) => u.value)).toEqual(['typo']);
  });

  it('says nothing before any record was looked at', () => {
    expect(new FilterCoverage({ severity: ['x'] }).unmatched()).toEqual([]);
  });
});
