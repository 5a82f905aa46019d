// Record filters: whole values for lists, substrings for text, no case or accents, OR within a flag, AND across.
import { describe, expect, it } from 'vitest';
import { compileFilter, isEmptyFilter, type RecordFilter } from '../../src/filters/record-filter.js';
import { fold } from '../../src/filters/normalize.js';

const records = [
  {
    id: 1,
    risk_severity: 'serious',
    risk_types: ['fire', 'burn'],
    alert_status: 'active',
    geo_jurisdictions: ['FR'],
    product_category: 'Appareils électriques',
    product_brand: 'Côté Cuisine',
    country_of_origin: 'Chine',
    alert_title: 'Radiateur',
    involved_parties: [{ name: 'Carrefour', role: 'retailer' }],
  },
  {
    id: 2,
    risk_severity: 'High',
    risk_types: ['choking'],
    alert_status: 'updated',
    geo_jurisdictions: ['US', 'CA'],
    product_category: 'Toys',
    product_brand: 'Kidzone',
    country_of_origin: 'China',
    alert_title: 'Plush Toys Recalled',
  },
  {
    id: 3,
    risk_severity: 'medium',
    risk_types: [],
    alert_status: 'active',
    geo_jurisdictions: [],
    product_category: null,
    product_brand: null,
    country_of_origin: null,
    alert_title: 'Crème brûlée',
  },
];

function ids(filter: RecordFilter): number[] {
  const keep = compileFilter(filter);
  return records.filter((r) => keep(r)).map((r) => r.id);
}

describe('record filters', () => {
  it('folds case, accents and spaces', () => {
    expect(fold('  Crème   BRÛLÉE ')).toBe('creme brulee');
  });

  it('an empty filter keeps everything', () => {
    expect(isEmptyFilter({})).toBe(true);
    expect(ids({})).toEqual([1, 2, 3]);
  });

  it('lists match whole values, any of them, without case', () => {
    expect(ids({ severity: ['high'] })).toEqual([2]);
    expect(ids({ severity: ['serious', 'MEDIUM'] })).toEqual([1, 3]);
    expect(ids({ severity: ['hig'] })).toEqual([]);
    expect(ids({ risk: ['burn'] })).toEqual([1]);
    expect(ids({ jurisdiction: ['ca', 'fr'] })).toEqual([1, 2]);
    expect(ids({ status: ['updated'] })).toEqual([2]);
  });

  it('text matches a substring without case or accents; null fields never match', () => {
    expect(ids({ category: 'electrique' })).toEqual([1]);
    expect(ids({ brand: 'cote' })).toEqual([1]);
    expect(ids({ country: 'china' })).toEqual([1, 2]);
  });

  it('--grep looks into every text, nested ones too, but not into keys', () => {
    expect(ids({ grep: 'creme brulee' })).toEqual([3]);
    expect(ids({ grep: 'carrefour' })).toEqual([1]);
    expect(ids({ grep: 'retailer' })).toEqual([1]);
    expect(ids({ grep: 'involved_parties' })).toEqual([]);
  });

  it('flags are AND', () => {
    expect(ids({ country: 'CN', severity: ['high'] })).toEqual([2]);
    expect(ids({ country: 'Chine', status: ['active'], risk: ['choking'] })).toEqual([]);
  });
});
