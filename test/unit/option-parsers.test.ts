// Flag parsing: whole numbers are plain decimal digits; seconds that mean something; no empty values; calendar dates; format names in any case.
import { describe, expect, it } from 'vitest';
import { parseSeconds, parseWholeNumber } from '../../src/runtime/options/option-parsers.js';
import { UsageError } from '../../src/runtime/cli-errors.js';
import { resolveSettings } from '../../src/runtime/settings.js';
import { parseFormatValue as parseFormat } from '../../src/runtime/settings-parsers.js';
import { timestampMicros } from '../../src/api/timestamps.js';

describe('parseWholeNumber', () => {
  it.each([
    ['7', 7],
    [' 12 ', 12],
    ['0024', 24],
    ['9007199254740991', 9007199254740991],
  ])('takes %j as %i', (raw, expected) => {
    expect(parseWholeNumber(raw, '--max', 0)).toBe(expected);
  });

  it.each([
    '1e3',
    '0x10',
    '0b1',
    '0o7',
    '1.0',
    '1.',
    '+5',
    '-0',
    '',
    '  ',
    '1 000',
    '١٢',
    'Infinity',
    '9007199254740993',
  ])('refuses %j', (raw) => {
    expect(() => parseWholeNumber(raw, '--max', 0)).toThrow(UsageError);
    expect(() => parseWholeNumber(raw, '--max', 0)).toThrow(`--max must be a whole number 0 or more, not '${raw}'`);
  });

  it('keeps its range and its absent case', () => {
    expect(parseWholeNumber(undefined, '--hours', 1, 24)).toBeUndefined();
    expect(() => parseWholeNumber('25', '--hours', 1, 24)).toThrow(
      "--hours must be a whole number from 1 to 24, not '25'",
    );
  });
});

describe('parseSeconds', () => {
  it('takes decimal seconds up to what a timer can hold (2^31 - 1 ms), as milliseconds', () => {
    expect(parseSeconds('1.5', '--timeout', 0, true)).toBe(1500);
    expect(parseSeconds('2147483', '--max-wait', 0)).toBe(2_147_483_000);
    // 2147484 s is past 2147483647 ms: Node would fire such a timer after 1 ms.
    expect(() => parseSeconds('2147484', '--max-wait', 0)).toThrow(
      "--max-wait must be a number of seconds 0 or more and at most 2147483, not '2147484'",
    );
  });

  it('refuses a positive value that rounds to no millisecond, naming the flag, never an internal name', () => {
    expect(parseSeconds('0.001', '--timeout', 0, true)).toBe(1);
    for (const raw of ['0.0001', '0.0004']) {
      expect(() => parseSeconds(raw, '--timeout', 0, true)).toThrow(
        `--timeout must be at least 0.001 s (timers count whole milliseconds), not '${raw}'`,
      );
    }
    // Where 0 is allowed (--max-wait 0 never waits), a value that rounds to 0 is that.
    expect(parseSeconds('0.0001', '--max-wait', 0)).toBe(0);
  });
});

describe('empty values of the global flags', () => {
  it.each([
    [{ timeout: '' }, '--timeout needs a value'],
    [{ maxWait: ' ' }, '--max-wait needs a value'],
    [{ retries: '' }, '--retries needs a value'],
    [{ maxResponseMb: '' }, '--max-response-mb needs a value'],
    [{ pace: '' }, '--pace needs a value'],
  ])('%j is refused', (flags, message) => {
    expect(() => resolveSettings(flags, {}, {})).toThrow(message);
  });
});

describe('timestamps', () => {
  it('refuses days a month does not have, takes the ones it has', () => {
    for (const bad of ['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00']) {
      expect(timestampMicros(bad), bad).toBeNaN();
    }
    expect(timestampMicros('2024-02-29')).toBe(Date.UTC(2024, 1, 29) * 1000);
    expect(timestampMicros('2026-12-31T23:59:59.5+01:00')).toBe((Date.UTC(2026, 11, 31, 22, 59, 59) + 500) * 1000);
  });
});

describe('format names', () => {
  it('takes any case, from the flag and from the profile', () => {
    expect(parseFormat('CSV', '--format')).toBe('csv');
    expect(parseFormat('JsonL', '--format')).toBe('jsonl');
    const settings = resolveSettings({ format: 'TABLE' }, {}, { format: 'Json' });
    expect(settings.format).toBe('table');
    expect(settings.profileFormat).toBe('json');
  });

  it('still refuses unknown names, quoting them as given', () => {
    expect(() => parseFormat('XML', '--format')).toThrow(
      "--format must be one of table, jsonl, json, csv, parquet, not 'XML'",
    );
  });
});
