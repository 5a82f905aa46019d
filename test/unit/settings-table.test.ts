// The settings table drives resolution, `config set`, help environment and the docs: every row, from each source.
import { describe, expect, it } from 'vitest';
import { ConfigValueError, CONFIG_KEYS, validateConfigValue } from '../../src/runtime/config/config-keys.js';
import { UsageError } from '../../src/runtime/cli-errors.js';
import { SETTINGS, type SettingRow } from '../../src/runtime/settings-table.js';
import { resolveProfileName, resolveSettings, type Settings, settingSource } from '../../src/runtime/settings.js';
import { parseSandboxNow } from '../../src/runtime/settings-parsers.js';
import { settingsMarkdown } from '../../src/cli/reference.js';
import { SECRET_ENV_NAMES } from '../../src/actions/child-env.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Three valid values per setting (for the flag, the environment and the profile), and one each refuses. */
const SAMPLES: Record<string, { good: [string, string, string]; bad: string }> = {
  profile: { good: ['cli', 'ops', 'stored'], bad: '' },
  'api-key': { good: ['flag-key', 'env-key', 'profile-key'], bad: 'two words' },
  webhook: { good: ['https://a.example/h/1', 'https://b.example/h/2', 'http://127.0.0.1:9/h'], bad: 'ftp://x/y' },
  'base-url': { good: ['https://flag.example', 'https://env.example', 'http://127.0.0.1:8080'], bad: 'ftp://x' },
  format: { good: ['json', 'csv', 'jsonl'], bad: 'xml' },
  sources: { good: ['us_cpsc', 'uk_opss', 'eu_safety_gate'], bad: 'US-CPSC' },
  'page-size': { good: ['10', '20', '30'], bad: '501' },
  timeout: { good: ['1', '2.5', '7'], bad: '0' },
  'max-wait': { good: ['0', '60', '90.5'], bad: '-1' },
  retries: { good: ['0', '3', '20'], bad: '21' },
  'max-response-mb': { good: ['1', '64', '500'], bad: '501' },
  pace: { good: ['minute=10', 'hour=500/1h', 'day=5000/1d'], bad: 'week=1' },
  db: { good: ['a.db', 'postgres://u@127.0.0.1:5432/db', 'b.db'], bad: 'postgres://[' },
  'smtp-url': {
    good: ['smtp://u:p@127.0.0.1:25', 'smtps://u:p@mail.example:465', 'smtp://127.0.0.1'],
    bad: 'http://x',
  },
  'email-from': { good: ['a@example.com', 'b@example.com', 'c@example.org'], bad: 'a@example.com,b@example.com' },
  monitor: {
    good: ['https://hc.example/1', 'https://hc.example/2', 'http://127.0.0.1:9/p'],
    bad: 'http://hc.example/x',
  },
  'metrics-file': { good: ['a.prom', 'b.prom', 'c.prom'], bad: 'a.txt' },
  'case-sla': { good: ['2wd', '24h', '3d'], bad: '2x' },
  'mcp-token': { good: ['a'.repeat(32), 'b'.repeat(40), 'c0ffee'.repeat(8)], bad: 'short' },
  'log-format': { good: ['json', 'text', 'json'], bad: 'xml' },
  'sandbox-now': {
    good: ['2026-06-01T12:00:00Z', '2026-06-01T14:00+02:00', '2026-06-01T12:00:00.5Z'],
    bad: '2026-06-01',
  },
};

const camel = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const longFlagOf = (row: SettingRow) => (row.flag ? /--[a-z-]+/.exec(row.flag)?.[0] : undefined);

/** The flags, the environment and the profile each give the setting its own value (the profile the third). */
function everySource(row: SettingRow) {
  const [flagValue, envValue, profileValue] = SAMPLES[row.name]!.good;
  const flag = longFlagOf(row);
  const flags: Record<string, string> = flag ? { [camel(flag)]: flagValue } : {};
  const env: Record<string, string> = Object.fromEntries(
    (row.env ?? []).map((v, i) => [v, `${envValue}${'x'.repeat(i)}`]),
  );
  const profile: Record<string, string> = row.key ? { [row.key]: profileValue } : {};
  return { flags, env, profile, flagValue, envValue, profileValue };
}

describe('every setting of the table', () => {
  it('has samples here, and the samples are what its parser accepts', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(SETTINGS.map((r) => r.name).sort());
    for (const row of SETTINGS)
      for (const raw of SAMPLES[row.name]!.good) expect(() => row.parse(raw, 'x')).not.toThrow();
  });

  it.each(SETTINGS.map((row) => [row.name, row] as const))('%s: flag > environment > profile > default', (_, row) => {
    const { flags, env, profile, flagValue, envValue, profileValue } = everySource(row);
    const at = (f: object, e: object, p: object) => settingSource(row.name, f as never, e as never, p as never);
    if (row.flag) expect(at(flags, env, profile)).toMatchObject({ raw: flagValue, from: 'flag' });
    if (row.env) {
      // The first variable wins over the others, and over the profile.
      expect(at({}, env, profile)).toMatchObject({ raw: envValue, from: 'env', source: row.env[0] });
      for (const [i, name] of row.env.entries()) {
        expect(at({}, { [name]: 'v' }, profile), name).toMatchObject({ raw: 'v', source: row.env[i] });
      }
    }
    if (row.key) {
      expect(at({}, {}, profile)).toMatchObject({
        raw: profileValue,
        from: 'profile',
        source: `the profile's ${row.key}`,
      });
      // An empty value counts as none.
      expect(at({}, Object.fromEntries((row.env ?? []).map((v) => [v, ''])), profile)?.from).toBe('profile');
    }
    expect(at({}, {}, {})).toBeUndefined();
  });

  /** What resolveSettings makes of each global setting, from its Settings field. */
  const FIELDS: Record<string, (s: Settings) => unknown> = {
    profile: (s) => s.profile,
    'api-key': (s) => s.apiKey,
    'base-url': (s) => s.baseUrl,
    timeout: (s) => s.timeoutMs / 1000,
    'max-wait': (s) => s.maxWaitMs / 1000,
    retries: (s) => String(s.retries),
    'max-response-mb': (s) => String((s.maxResponseBytes as number) / 2 ** 20),
    webhook: (s) => s.webhook,
    'smtp-url': (s) => s.smtpUrl,
  };

  it.each(Object.keys(FIELDS))('resolveSettings takes %s from each of its sources in that order', (name) => {
    const row = SETTINGS.find((r) => r.name === name) as SettingRow;
    const { flags, env, profile, flagValue, envValue, profileValue } = everySource(row);
    const field = (f: object, e: object, p: object) =>
      String(FIELDS[name]!(resolveSettings(f, e as never, p as never)));
    // webhook and smtp-url come from the environment or the profile here; their commands' flags win in the command.
    const global = name !== 'webhook' && name !== 'smtp-url';
    if (row.flag && global) expect(field(flags, env, profile)).toBe(flagValue);
    if (row.env) expect(field({}, env, profile)).toBe(envValue);
    if (row.key) expect(field({}, {}, profile)).toBe(profileValue);
  });

  it('resolveSettings checks each source with the table parser, naming it', () => {
    expect(() => resolveSettings({ retries: '21' }, {}, {})).toThrow(
      "--retries must be a whole number from 0 to 20, not '21'",
    );
    expect(() => resolveSettings({}, { RECALL_FEED_BASE_URL: 'ftp://x' }, {})).toThrow(
      "RECALL_FEED_BASE_URL must be an http or https URL, not 'ftp://x'",
    );
    const bad = (() => {
      try {
        resolveSettings({}, {}, { 'max-wait': '-1' });
      } catch (err) {
        return err as UsageError;
      }
    })();
    expect(bad).toBeInstanceOf(UsageError);
    expect(bad?.message).toBe(
      "the profile's max-wait must be a number of seconds 0 or more and at most 2147483, not '-1'",
    );
    expect(bad?.hint).toBe('fix it with `recall-feed config set max-wait ...`');
  });
});

describe('config set', () => {
  const keyed = SETTINGS.filter((row) => row.key !== undefined);

  it('takes exactly the keys of the table', () => {
    expect([...CONFIG_KEYS]).toEqual(keyed.map((row) => row.key));
  });

  it.each(keyed.map((row) => [row.key, row] as const))('%s: refuses a bad value with the table’s words', (key, row) => {
    const { bad } = SAMPLES[row.name]!;
    const expected = `invalid value${row.secret ? '' : ` "${bad}"`} for ${key}: expected ${row.values}`;
    expect(() => validateConfigValue(key as string, bad)).toThrow(new ConfigValueError(expected));
    for (const raw of SAMPLES[row.name]!.good) expect(() => validateConfigValue(key as string, raw)).not.toThrow();
  });

  it('in process: a bad value is exit 2 with the table’s message, and nothing is written', async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-settings-') };
    for (const row of keyed) {
      const { bad } = SAMPLES[row.name]!;
      const r = await runMain(['config', 'set', row.key as string, bad], { env });
      expect(r.code, row.name).toBe(2);
      const shown = row.secret ? '' : ` "${bad}"`;
      expect(r.stderr, row.name).toBe(`error: invalid value${shown} for ${row.key}: expected ${row.values}\n`);
    }
    expect((await runMain(['config', 'list'], { env })).stdout).toBe('');
  });
});

describe('secrets', () => {
  /** A value of each secret key, its secret part spelled "s3cret". */
  const SECRET_VALUES: Record<string, string> = {
    'api-key': 'dr_live_s3cret0123456789abcdef',
    webhook: 'https://hooks.example/T1/s3cret',
    db: 'postgres://u:s3cret@127.0.0.1:5432/db',
    'smtp-url': 'smtp://u:s3cret@127.0.0.1:25',
    monitor: 'https://hc.example/ping/s3cret-0123456789abcdef',
    'mcp-token': 'tok-0123456789-s3cret-abcdef-0123456789',
  };

  it('config get and list mask every secret of the table (unless --show-secrets); the rest are shown', async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-secrets-') };
    const secret = SETTINGS.filter((row) => row.key && row.secret).map((row) => row.key as string);
    expect(Object.keys(SECRET_VALUES).sort()).toEqual([...secret].sort());
    for (const key of secret) {
      // Without a value on the line, a secret is read from stdin.
      expect((await runMain(['config', 'set', key], { env, stdin: `${SECRET_VALUES[key]}\n` })).code, key).toBe(0);
      const shown = await runMain(['config', 'get', key], { env });
      expect(shown.stdout, key).not.toContain('s3cret');
      expect(shown.stdout, key).not.toBe('');
      expect((await runMain(['config', 'get', key, '--show-secrets'], { env })).stdout).toBe(`${SECRET_VALUES[key]}\n`);
    }
    expect((await runMain(['config', 'set', 'email-from', 'a@example.com'], { env })).code).toBe(0);
    const list = (await runMain(['config', 'list'], { env })).stdout;
    expect(list).not.toContain('s3cret');
    expect(list).toContain('email-from=a@example.com\n');
    // A key that is no secret is never read from stdin.
    const bare = await runMain(['config', 'set', 'email-from'], { env, stdin: 'b@example.com\n' });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe('error: config set email-from needs a value\n');
  });

  it('an --exec child never gets the variable of a secret (RECALL_FEED_DB only when its URL holds a password)', () => {
    const names = SETTINGS.filter((row) => row.secret).flatMap((row) => row.env ?? []);
    expect(names.length).toBeGreaterThan(3);
    for (const name of names.filter((n) => n !== 'RECALL_FEED_DB')) expect(SECRET_ENV_NAMES, name).toContain(name);
  });
});

describe('help and docs list the table', () => {
  it('help environment lists exactly the variables of the table, in its order, before the others', async () => {
    const r = await runMain(['help', 'environment']);
    expect(r.code).toBe(0);
    const section = r.stdout.split('\nSettings')[1]!.split('\nOthers:')[0]!;
    const names = [...section.matchAll(/^ {2}(\S.*?) {2,}\S/gm)].map((m) => m[1]!.trim());
    expect(names).toEqual(SETTINGS.filter((row) => row.env).map((row) => row.env!.join(', ')));
  });

  it('docs/settings-table.md has one row per setting, with its flag, variables and key', () => {
    const rows = settingsMarkdown()
      .split('\n')
      .filter((line) => /^\| [a-z]/.test(line) && !line.startsWith('| setting |'));
    expect(rows.map((line) => line.split(' | ')[0]!.slice(2))).toEqual(SETTINGS.map((row) => row.name));
    for (const [i, row] of SETTINGS.entries()) {
      for (const v of row.env ?? []) expect(rows[i]).toContain(`\`${v}\``);
      if (row.key) expect(rows[i]).toContain(`\`${row.key}\`${row.secret ? ' (secret)' : ''}`);
    }
  });

  it('the global flags’ help is the table’s description', async () => {
    const r = await runMain(['--help']);
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const row of SETTINGS.filter((s) => s.flag && !s.command && s.name !== 'format')) {
      expect(flat, row.name).toContain(`${row.flag} ${row.description}`);
    }
  });
});

describe('settings checked wherever they come from, not only by config set', () => {
  it('--sandbox-now refuses a day its month does not have (Date.parse rolled it over into March)', () => {
    expect(() => parseSandboxNow('2026-02-30T00:00:00Z', '--sandbox-now')).toThrow(
      '--sandbox-now 2026-02-30T00:00:00Z: no such day',
    );
    expect(() => parseSandboxNow('2026-04-31T08:00+02:00', 'RECALL_FEED_SANDBOX_NOW')).toThrow(UsageError);
    expect(parseSandboxNow('2024-02-29T23:30:00-01:00', '--sandbox-now')).toBe(Date.UTC(2024, 2, 1, 0, 30));
    expect(parseSandboxNow('2026-06-01t12:00:00.5z', '--sandbox-now')).toBe(Date.UTC(2026, 5, 1, 12, 0, 0, 500));
  });

  it('RECALL_FEED_LOG_FORMAT=xml is a usage error naming the variable (it was read as text, silently)', () => {
    expect(() => resolveSettings({}, { RECALL_FEED_LOG_FORMAT: 'xml' }, {})).toThrow(
      "RECALL_FEED_LOG_FORMAT must be text or json, not 'xml'",
    );
    expect(() => resolveSettings({}, { RECALL_FEED_LOG_FORMAT: 'JSON' }, {})).not.toThrow();
  });

  it('a profile name config set would refuse is refused from --profile and RECALL_FEED_PROFILE too', () => {
    expect(() => resolveProfileName({ profile: 'bad!name' }, {})).toThrow(
      `--profile must be letters, digits, "_", "." and "-", starting with a letter or digit (at most 64), not 'bad!name'`,
    );
    expect(() => resolveProfileName({}, { RECALL_FEED_PROFILE: '../etc' })).toThrow(/^RECALL_FEED_PROFILE must be/);
    expect(() => resolveProfileName({}, { RECALL_FEED_PROFILE: 'x'.repeat(65) })).toThrow(UsageError);
    expect(resolveProfileName({ profile: 'ok.name-1' }, { RECALL_FEED_PROFILE: 'other' })).toBe('ok.name-1');
    expect(resolveProfileName({}, { RECALL_FEED_PROFILE: 'ops_2' })).toBe('ops_2');
    expect(resolveProfileName({}, { RECALL_FEED_PROFILE: '' })).toBe('default');
    expect(resolveProfileName({}, {})).toBe('default');
  });
});
