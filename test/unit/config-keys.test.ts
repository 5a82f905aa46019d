// Settable config keys: validation, normalization, error messages; secret masking.
import { describe, expect, it } from 'vitest';
import {
  CONFIG_KEY_INFO,
  CONFIG_KEYS,
  ConfigValueError,
  isConfigKey,
  validateConfigKey,
  validateConfigValue,
  validateProfileName,
} from '../../src/runtime/config/config-keys.js';
import { maskSecret } from '../../src/runtime/config/mask.js';

function errorOf(fn: () => unknown): ConfigValueError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigValueError);
    return err as ConfigValueError;
  }
  throw new Error('expected a ConfigValueError');
}

describe('CONFIG_KEYS', () => {
  it('lists the settable keys, each with a description and its valid values', () => {
    expect(CONFIG_KEYS).toEqual([
      'api-key',
      'webhook',
      'base-url',
      'format',
      'sources',
      'page-size',
      'timeout',
      'max-wait',
      'retries',
      'db',
      'smtp-url',
      'email-from',
      'monitor',
      'metrics-file',
      'case-sla',
      'mcp-token',
    ]);
    for (const key of CONFIG_KEYS) {
      expect(CONFIG_KEY_INFO[key]?.description).toMatch(/\w/);
      expect(CONFIG_KEY_INFO[key]?.values).toMatch(/\w/);
    }
    expect(CONFIG_KEYS.filter((k) => CONFIG_KEY_INFO[k]?.secret)).toEqual([
      'api-key',
      'webhook',
      'db',
      'smtp-url',
      'monitor',
      'mcp-token',
    ]);
    expect(isConfigKey('format')).toBe(true);
    expect(isConfigKey('toString')).toBe(false);
  });
});

describe('validateConfigValue', () => {
  it.each([
    ['api-key', ' rf_live_abc123 ', 'rf_live_abc123'],
    ['base-url', 'https://api.deeprecall.io', 'https://api.deeprecall.io'],
    ['base-url', 'http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
    ['format', 'jsonl', 'jsonl'],
    ['format', ' CSV ', 'csv'],
    ['sources', 'us_cpsc, uk_opss,,us_cpsc', 'us_cpsc,uk_opss'],
    ['page-size', '1', 1],
    ['page-size', '500', 500],
    ['timeout', '2.5', 2.5],
    ['timeout', '30', 30],
    ['max-wait', '0', 0],
    ['max-wait', '90.5', 90.5],
    ['retries', '0', 0],
    ['retries', '20', 20],
  ] as const)('%s %j -> %j', (key, raw, expected) => {
    expect(validateConfigValue(key, raw)).toBe(expected);
  });

  it.each([
    [
      'api-key',
      '',
      'invalid value for api-key: expected a non-empty key of printable ASCII characters, without whitespace',
    ],
    // An HTTP header cannot carry it: stored, every run was refused at its first request.
    [
      'api-key',
      'dr_live_\u043a\u043b\u044e\u0447',
      'invalid value for api-key: expected a non-empty key of printable ASCII characters, without whitespace',
    ],
    [
      'api-key',
      'dr_live_a\u0007b',
      'invalid value for api-key: expected a non-empty key of printable ASCII characters, without whitespace',
    ],
    // A secret is never echoed back, not even a mistyped one.
    [
      'webhook',
      'http://hooks.example.com/T1/secret',
      'invalid value for webhook: expected an https:// URL (plain http only to this machine)',
    ],
    ['base-url', 'ftp://x', 'invalid value "ftp://x" for base-url: expected an http:// or https:// URL'],
    [
      'base-url',
      'api.deeprecall.io',
      'invalid value "api.deeprecall.io" for base-url: expected an http:// or https:// URL',
    ],
    ['format', 'xml', 'invalid value "xml" for format: expected table, jsonl, json, csv, parquet'],
    [
      'sources',
      'US-CPSC',
      'invalid value "US-CPSC" for sources: expected comma-separated source ids of a-z, 0-9 and _ (e.g. us_cpsc,uk_opss)',
    ],
    [
      'sources',
      ' , ',
      'invalid value " , " for sources: expected comma-separated source ids of a-z, 0-9 and _ (e.g. us_cpsc,uk_opss)',
    ],
    ['page-size', '0', 'invalid value "0" for page-size: expected a whole number from 1 to 500'],
    ['page-size', '501', 'invalid value "501" for page-size: expected a whole number from 1 to 500'],
    ['page-size', '2.5', 'invalid value "2.5" for page-size: expected a whole number from 1 to 500'],
    ['page-size', '0x10', 'invalid value "0x10" for page-size: expected a whole number from 1 to 500'],
    ['timeout', '0', 'invalid value "0" for timeout: expected a number of seconds greater than 0 and at most 2147483'],
    [
      'timeout',
      '-1',
      'invalid value "-1" for timeout: expected a number of seconds greater than 0 and at most 2147483',
    ],
    [
      'timeout',
      'soon',
      'invalid value "soon" for timeout: expected a number of seconds greater than 0 and at most 2147483',
    ],
    [
      'max-wait',
      '-0.5',
      'invalid value "-0.5" for max-wait: expected a number of seconds, 0 or more and at most 2147483',
    ],
    ['max-wait', '', 'invalid value "" for max-wait: expected a number of seconds, 0 or more and at most 2147483'],
    ['retries', '21', 'invalid value "21" for retries: expected a whole number from 0 to 20'],
    ['retries', '1e1', 'invalid value "1e1" for retries: expected a whole number from 0 to 20'],
    // Where `config set` and the flag disagreed, the stricter check of the two, now the one both use: a timer
    // holds no more than 2147483 s, a timeout that rounds to 0 ms is none, and a monitor's plain http only to
    // this machine (what --monitor refuses when it runs).
    [
      'timeout',
      '2147484',
      'invalid value "2147484" for timeout: expected a number of seconds greater than 0 and at most 2147483',
    ],
    [
      'timeout',
      '0.0001',
      'invalid value "0.0001" for timeout: expected a number of seconds greater than 0 and at most 2147483',
    ],
    [
      'max-wait',
      '9999999',
      'invalid value "9999999" for max-wait: expected a number of seconds, 0 or more and at most 2147483',
    ],
    [
      'monitor',
      'http://hc.example.com/ping/abc',
      'invalid value for monitor: expected an https:// URL (plain http only to this machine)',
    ],
  ] as const)('rejects %s %j', (key, raw, message) => {
    expect(errorOf(() => validateConfigValue(key, raw)).message).toBe(message);
  });

  it('never echoes a rejected API key', () => {
    const message = errorOf(() => validateConfigValue('api-key', 'rf_live_secret part')).message;
    expect(message).not.toContain('secret');
    expect(message).toBe(
      'invalid value for api-key: expected a non-empty key of printable ASCII characters, without whitespace',
    );
  });

  it('names the valid keys for an unknown key, with a guess when it is close', () => {
    expect(errorOf(() => validateConfigValue('colour', 'x')).message).toBe(
      'unknown config key "colour"; valid keys: api-key, webhook, base-url, format, sources, page-size, timeout, max-wait, retries, db, smtp-url, email-from, monitor, metrics-file, case-sla, mcp-token',
    );
    expect(errorOf(() => validateConfigKey('api_key')).message).toMatch(
      /^unknown config key "api_key" \(did you mean "api-key"\?\); valid keys: api-key, /,
    );
    expect(validateConfigKey('retries')).toBe('retries');
    // A typo, a few edits from a key: settings.md promises the guess "when it is close".
    for (const [typo, key] of [
      ['timout', 'timeout'],
      ['formt', 'format'],
      ['webhok', 'webhook'],
      ['soruces', 'sources'],
    ] as const)
      expect(errorOf(() => validateConfigKey(typo)).message).toMatch(
        new RegExp(`^unknown config key "${typo}" \\(did you mean "${key}"\\?\\)`),
      );
  });
});

describe('validateProfileName', () => {
  it('accepts plain names and rejects the rest', () => {
    expect(validateProfileName('prod-eu_1.a')).toBe('prod-eu_1.a');
    expect(errorOf(() => validateProfileName('-x')).message).toMatch(/^invalid profile name "-x"/);
  });
});

describe('maskSecret', () => {
  it('shows the first 8 and last 4 characters of a long key', () => {
    expect(maskSecret('rf_live_0123456789abcdef')).toBe('rf_live_…cdef');
    expect(maskSecret('abcdefghijklm')).toBe('abcdefgh…jklm');
  });

  it('hides keys of 12 characters or fewer entirely', () => {
    expect(maskSecret('abcdefghijkl')).toBe('****');
    expect(maskSecret('short')).toBe('****');
    expect(maskSecret('')).toBe('****');
  });
});
