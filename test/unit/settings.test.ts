import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/runtime/cli-errors.js';
import { resumeCommand } from '../../src/jobs/feed/resume-command.js';
import { shellQuote } from '../../src/runtime/shell-quote.js';
import { chooseFormat } from '../../src/runtime/files/output-target.js';
import { resolveSettings } from '../../src/runtime/settings.js';
import { parsePacing } from '../../src/runtime/settings-parsers.js';

describe('resolveSettings', () => {
  const env = { RECALL_FEED_API_KEY: 'env-key', RECALL_FEED_BASE_URL: 'https://env.example' };
  const profile = { 'api-key': 'profile-key', 'base-url': 'https://profile.example', format: 'csv', timeout: 5 };

  it('takes flag > environment > profile > default', () => {
    expect(resolveSettings({ apiKey: 'flag-key' }, env, profile)).toMatchObject({
      apiKey: 'flag-key',
      apiKeySource: 'flag',
      baseUrl: 'https://env.example',
    });
    expect(resolveSettings({}, env, profile)).toMatchObject({
      apiKey: 'env-key',
      apiKeySource: 'env',
      format: undefined,
      profileFormat: 'csv',
      timeoutMs: 5000,
    });
    expect(resolveSettings({}, { DEEPRECALL_API_KEY: 'dr' }, {})).toMatchObject({ apiKey: 'dr', apiKeySource: 'env' });
    expect(resolveSettings({}, {}, profile)).toMatchObject({
      apiKey: 'profile-key',
      apiKeySource: 'profile',
      baseUrl: 'https://profile.example',
    });
    expect(resolveSettings({}, {}, {})).toMatchObject({
      apiKey: undefined,
      baseUrl: 'https://api.deeprecall.io',
      format: undefined,
      timeoutMs: 30_000,
      maxWaitMs: 120_000,
      retries: 5,
      profile: 'default',
    });
    expect(resolveSettings({ format: 'json' }, {}, profile).format).toBe('json');
    expect(resolveSettings({}, { RECALL_FEED_PROFILE: 'ops' }, {}).profile).toBe('ops');
    expect(resolveSettings({ profile: 'cli' }, { RECALL_FEED_PROFILE: 'ops' }, {}).profile).toBe('cli');
  });

  it('names the source of a bad value', () => {
    expect(() => resolveSettings({}, {}, { format: 'xml' })).toThrow(
      "the profile's format must be one of table, jsonl, json, csv, parquet, not 'xml'",
    );
    expect(() => resolveSettings({ timeout: '-1' }, {}, {})).toThrow(
      '--timeout must be a number of seconds greater than 0',
    );
    expect(() => resolveSettings({ maxWait: '0' }, {}, {})).not.toThrow();
  });
});

describe('chooseFormat', () => {
  const tty = { stdoutIsTTY: true, stderrIsTTY: true, columns: 80, color: 0 as const, animate: false };
  const pipe = { ...tty, stdoutIsTTY: false };
  const choose = (flags: Parameters<typeof resolveSettings>[0], profile = {}, terminal = tty) =>
    chooseFormat(resolveSettings(flags, {}, profile), terminal);

  it('takes --format, else the -o extension, else the profile, else the terminal', () => {
    expect(choose({ format: 'json', output: 'x.csv' }, { format: 'jsonl' })).toBe('json');
    expect(choose({ output: 'x.csv' }, { format: 'json' })).toBe('csv');
    expect(choose({ output: 'x.NDJSON' })).toBe('jsonl');
    expect(choose({ output: 'x.txt' }, { format: 'csv' })).toBe('csv');
    expect(choose({ output: 'x.txt' })).toBe('jsonl');
    expect(choose({})).toBe('table');
    expect(choose({}, {}, pipe)).toBe('jsonl');
  });

  it('refuses an extension of a format it does not write (compressed, tsv, spreadsheets), unless --format says the format', () => {
    for (const output of ['x.json.gz', 'x.jsonl.zst', 'x.tsv', 'x.xlsx', 'dir/x.CSV.GZ']) {
      expect(() => choose({ output }), output).toThrow(UsageError);
      // Profile formats do not count: only the run's own -f says what goes under that name.
      expect(() => choose({ output }, { format: 'csv' }), output).toThrow(UsageError);
      expect(choose({ output, format: 'csv' })).toBe('csv');
    }
  });
});

describe('parsePacing', () => {
  it('reads counts and windows', () => {
    expect(parsePacing('minute=10/2s')).toEqual({ minute: { limit: 10, windowMs: 2000 } });
    expect(parsePacing('minute=30,hour=500/1h,day=5000/1d')).toEqual({
      minute: { limit: 30 },
      hour: { limit: 500, windowMs: 3_600_000 },
      day: { limit: 5000, windowMs: 86_400_000 },
    });
    for (const bad of ['', 'week=1', 'minute=0', 'minute=5/0s', 'minute=5/2x', 'minute=a']) {
      expect(() => parsePacing(bad)).toThrow(UsageError);
    }
  });
});

describe('resumeCommand', () => {
  it('repeats the command without the key or an old cursor, and quotes for the shell', () => {
    const argv = [
      '--api-key',
      'SECRET',
      'feed',
      '--cursor',
      'old',
      '--sources',
      'us_cpsc',
      '-o',
      'my file.csv',
      '--api-key=SECRET2',
    ];
    expect(resumeCommand(argv, ['--cursor', 'eyJ4IjoxfQ=='])).toBe(
      "recall-feed feed --sources us_cpsc -o 'my file.csv' --cursor eyJ4IjoxfQ==",
    );
    expect(resumeCommand(['feed', '--resume', '-o', 'a.csv'], ['--resume'])).toBe('recall-feed feed -o a.csv --resume');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
