// --columns checks: nearest-name hints, refusing unknown recall fields, and the warnings where nothing is refused.
import { describe, expect, it } from 'vitest';
import { RECALL_FIELDS } from '../../src/api/constants.js';
import { checkKnownColumns, columnWarnings, nearestNames } from '../../src/runtime/options/column-names.js';
import { parseColumns } from '../../src/runtime/options/option-parsers.js';
import { UsageError } from '../../src/runtime/cli-errors.js';

describe('nearestNames', () => {
  it.each([
    ['prodcut_name', ['product_name']],
    ['ID', ['id']],
    ['title', ['alert_title']],
    ['titel', ['alert_title']],
    ['published', ['published_at']],
    ['severity', ['risk_severity']],
    ['brand', ['product_brand']],
    ['zzzzzz', []],
  ])('%s -> %j', (name, expected) => {
    expect(nearestNames(name, RECALL_FIELDS)).toEqual(expected);
  });

  it('gives at most three, closest first', () => {
    expect(nearestNames('product', RECALL_FIELDS)).toEqual(['product_name', 'product_brand', 'product_category']);
  });
});

describe('checkKnownColumns and parseColumns', () => {
  it('accepts known names', () => {
    expect(parseColumns(' id , product_name ', RECALL_FIELDS)).toEqual(['id', 'product_name']);
    expect(() => checkKnownColumns(['id', 'created_in_db_at'], RECALL_FIELDS)).not.toThrow();
  });

  it('refuses an unknown name with a usage error and the nearest names as its hint', () => {
    let caught: unknown;
    try {
      parseColumns('id,prodcut_name,titel', RECALL_FIELDS);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe("--columns has unknown columns: 'prodcut_name', 'titel'");
    expect((caught as UsageError).hint).toBe(
      "did you mean product_name (for 'prodcut_name'); alert_title (for 'titel')?",
    );
  });

  it('lists the known names when nothing is near', () => {
    expect(() => checkKnownColumns(['ZZ ZZ'], ['id', 'name'])).toThrow("--columns has an unknown column: 'ZZ ZZ'");
    try {
      checkKnownColumns(['ZZ ZZ'], ['id', 'name']);
    } catch (err) {
      expect((err as UsageError).hint).toBe('known: id, name');
    }
  });

  it('takes a field the API added (any snake-case name that is no typo of a known one), refuses other shapes', () => {
    expect(parseColumns('id,recall_reason_code,lot2', RECALL_FIELDS)).toEqual(['id', 'recall_reason_code', 'lot2']);
    for (const bad of ['Product_Name', 'product name', 'product-name', '_x', 'a__b', 'x_']) {
      expect(() => parseColumns(`id,${bad}`, RECALL_FIELDS), bad).toThrow(`--columns has an unknown column: '${bad}'`);
    }
    expect(() => parseColumns('product_nmae', RECALL_FIELDS)).toThrow(UsageError);
  });

  it('checks nothing without a known list (custom feeds, sources)', () => {
    expect(parseColumns('anything,at_all')).toEqual(['anything', 'at_all']);
  });
});

describe('columnWarnings', () => {
  const records = [
    { id: 1, sku: 'A' },
    { id: 2, extra: true },
  ];

  it('warns that jsonl and json print whole records', () => {
    expect(columnWarnings({ columns: ['id'], format: 'jsonl' })).toEqual([
      '--columns applies to table, csv and parquet only; jsonl prints whole records',
    ]);
    expect(columnWarnings({ columns: ['id'], format: 'json', records })).toEqual([
      '--columns applies to table, csv and parquet only; json prints whole records',
    ]);
  });

  it('warns about names no record of the first batch has, with the nearest fields', () => {
    expect(columnWarnings({ columns: ['id', 'skus', 'nope'], format: 'csv', records })).toEqual([
      "no record has the columns 'skus', 'nope' (left empty); did you mean sku (for 'skus')?",
    ]);
    expect(columnWarnings({ columns: ['zzzzzz'], format: 'table', records })).toEqual([
      "no record has the column 'zzzzzz' (left empty); known: id, sku, extra",
    ]);
  });

  it('says nothing without --columns, when every name is present, or before any record', () => {
    expect(columnWarnings({ columns: undefined, format: 'jsonl' })).toEqual([]);
    expect(columnWarnings({ columns: ['sku', 'extra'], format: 'csv', records })).toEqual([]);
    expect(columnWarnings({ columns: ['nope'], format: 'csv', records: [] })).toEqual([]);
    expect(columnWarnings({ columns: ['nope'], format: 'csv' })).toEqual([]);
  });
});
