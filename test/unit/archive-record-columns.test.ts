import { describe, expect, it } from 'vitest';
import { timestampMicros } from '../../src/api/timestamps.js';
import { recordColumns } from '../../src/archive/record-columns.js';
import { fold } from '../../src/filters/normalize.js';
import { foldedValues } from '../../src/filters/record-filter.js';

/** What each column must hold, from the filters' own folding, field by field. */
function expected(r: Record<string, unknown>) {
  const list = (v: unknown) => JSON.stringify(foldedValues(v));
  const textOf = (v: unknown) => (typeof v === 'string' ? fold(v) : null);
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  const us = (v: unknown) => (typeof v === 'string' && !Number.isNaN(timestampMicros(v)) ? timestampMicros(v) : null);
  return {
    published_us: us(r.published_at),
    updated_us: us(r.updated_at),
    created_us: us(r.created_in_db_at),
    filter_severity: list(r.risk_severity),
    filter_status: list(r.alert_status),
    filter_risk: list(r.risk_types),
    filter_jurisdiction: list(r.geo_jurisdictions),
    filter_category: textOf(r.product_category),
    filter_brand: textOf(r.product_brand),
    filter_country: textOf(r.country_of_origin),
    stat_severity: json(r.risk_severity),
    stat_status: json(r.alert_status),
    stat_risk: json(r.risk_types),
    stat_jurisdiction: json(r.geo_jurisdictions),
    stat_category: json(r.product_category),
    stat_brand: json(r.product_brand),
    stat_country: json(r.country_of_origin),
  };
}

describe('recordColumns', () => {
  it('gives each record its own folded values, however often a value recurs and in whichever field', () => {
    // The same texts in list fields and text fields, as strings and arrays, recurring in turn, and more distinct
    // values than the folding memo holds.
    const texts = ['Crème Brûlée', 'CRÈME  brûlée ', 'Ünïcode', 'Ünïcode', 'x'];
    const records: Record<string, unknown>[] = [];
    for (let i = 0; i < 9000; i++) {
      const t = texts[i % texts.length] as string;
      const distinct = `Brand Ä${i}`;
      records.push({
        id: i,
        published_at: i % 3 ? '2026-01-02T03:04:05.123456+01:00' : '2026-02-30T00:00:00Z',
        updated_at: i % 2 ? '2026-01-02T03:04:05.123456+01:00' : '2026-01-03T00:00:00',
        created_in_db_at: i % 4 ? 'not a time' : '2026-01-04T00:00:00Z',
        risk_severity: i % 2 ? t : [t, 7, null],
        alert_status: i % 5 ? [t] : undefined,
        risk_types: i % 3 ? [t, t.toUpperCase()] : t,
        geo_jurisdictions: i % 7 ? ['DE', 'de'] : 3,
        product_category: i % 2 ? [t] : t,
        product_brand: i % 3 ? distinct : t,
        country_of_origin: i % 4 ? t : null,
      });
    }
    for (const r of records) {
      const raw = JSON.stringify(r);
      const got = recordColumns(r, raw);
      expect({ ...got, raw: undefined }).toMatchObject(expected(r));
      expect(got.raw).toBe(raw);
    }
  });
});
