// The settable config keys: a one-line description, the valid values and a validator for each.
import { BOUNDS, MAX_RETRIES, SOURCE_ID_PATTERN } from '../../api/constants.js';
import { FORMATS, isFormat } from '../../output/formats.js';
import { checkWebhookUrl } from '../../actions/webhook-url.js';
import { parseAddresses, parseSmtpUrl } from '../../actions/email-smtp.js';
import { ConfigValueError } from './config-errors.js';

export { ConfigValueError } from './config-errors.js';

export type ConfigValue = string | number;

export interface ConfigKeyInfo {
  description: string;
  /** What the key accepts, as shown in errors and help. */
  values: string;
  /** Shown masked by `config get/list`. */
  secret: boolean;
  /** Returns the normalized value, or a reason it is invalid. */
  parse(raw: string): ConfigValue | { invalid: string };
}

const UNSIGNED_INT = /^\d+$/;
const UNSIGNED_DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

function intIn(min: number, max: number) {
  return (raw: string): ConfigValue | { invalid: string } => {
    const n = Number(raw);
    return UNSIGNED_INT.test(raw) && n >= min && n <= max ? n : { invalid: 'not a whole number in range' };
  };
}

function seconds(allowZero: boolean) {
  return (raw: string): ConfigValue | { invalid: string } => {
    const n = Number(raw);
    return UNSIGNED_DECIMAL.test(raw) && Number.isFinite(n) && (allowZero || n > 0)
      ? n
      : { invalid: 'not a number in range' };
  };
}

export const CONFIG_KEY_INFO = {
  'api-key': {
    description: 'API key sent as X-API-Key (stored in the config file with mode 0600)',
    values: 'a non-empty key without whitespace',
    secret: true,
    parse: (raw) => (raw !== '' && !/\s/.test(raw) ? raw : { invalid: 'empty or contains whitespace' }),
  },
  webhook: {
    description: 'where a bare --webhook posts new recalls (a secret: it carries the channel token)',
    values: 'an https:// URL (plain http only to this machine)',
    secret: true,
    parse: (raw) => {
      try {
        checkWebhookUrl(raw);
        return raw;
      } catch {
        return { invalid: 'not an https URL' };
      }
    },
  },
  'base-url': {
    description: 'API base address',
    values: 'an http:// or https:// URL',
    secret: false,
    parse: (raw) => {
      const url = URL.canParse(raw) ? new URL(raw) : undefined;
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
        return { invalid: 'not an http(s) URL' };
      }
      // Thrown here rather than returned: the usual message would repeat the value, credentials and all.
      if (url.username !== '' || url.password !== '') {
        throw new ConfigValueError(
          'invalid value for base-url: it holds a user name or password, which recall-feed never sends',
          {
            hint: "give the API's address alone, e.g. https://api.deeprecall.io; the key goes in `recall-feed config set api-key`",
          },
        );
      }
      return raw;
    },
  },
  format: {
    description: 'default output format',
    values: FORMATS.join(', '),
    secret: false,
    parse: (raw) => (isFormat(raw.trim().toLowerCase()) ? raw.trim().toLowerCase() : { invalid: 'unknown format' }),
  },
  sources: {
    description: 'default data sources, comma-separated ids',
    values: 'comma-separated source ids of a-z, 0-9 and _ (e.g. us_cpsc,uk_opss)',
    secret: false,
    parse: (raw) => {
      const ids = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (ids.length === 0 || !ids.every((id) => SOURCE_ID_PATTERN.test(id))) return { invalid: 'not a list of ids' };
      return [...new Set(ids)].join(',');
    },
  },
  'page-size': {
    description: 'records requested per page',
    values: `a whole number from ${BOUNDS.pageSizeMin} to ${BOUNDS.pageSizeMax}`,
    secret: false,
    parse: intIn(BOUNDS.pageSizeMin, BOUNDS.pageSizeMax),
  },
  timeout: {
    description: 'seconds to wait for each HTTP request',
    values: 'a number of seconds greater than 0',
    secret: false,
    parse: seconds(false),
  },
  'max-wait': {
    description: 'longest rate-limit wait, in seconds, before giving up (0: never wait)',
    values: 'a number of seconds, 0 or more',
    secret: false,
    parse: seconds(true),
  },
  retries: {
    description: 'retries of a failed request (timeouts, 5xx, connection errors)',
    values: `a whole number from 0 to ${MAX_RETRIES}`,
    secret: false,
    parse: intIn(0, MAX_RETRIES),
  },
  db: {
    description:
      'archive of sync, query, show and stats: a file, or a postgres:// URL (a secret: it may carry a password)',
    values: 'a file path or a postgres:// URL',
    secret: true,
    parse: (raw) => {
      if (raw === '') return { invalid: 'empty' };
      if (/^postgres(ql)?:\/\//i.test(raw) && !URL.canParse(raw)) return { invalid: 'not a valid URL' };
      return raw;
    },
  },
  'smtp-url': {
    description: 'the SMTP server of --email (a secret: it carries the password)',
    values: 'smtp://user:password@host:587 or smtps://user:password@host:465',
    secret: true,
    parse: (raw) => {
      try {
        parseSmtpUrl(raw);
        return raw;
      } catch {
        return { invalid: 'not an smtp:// or smtps:// URL' };
      }
    },
  },
  'email-from': {
    description: 'the sender address of --email',
    values: 'one e-mail address, e.g. recalls@example.com',
    secret: false,
    parse: (raw) => {
      try {
        const [one, ...more] = parseAddresses(raw, 'email-from');
        return more.length === 0 && one !== undefined ? one : { invalid: 'more than one address' };
      } catch {
        return { invalid: 'not an e-mail address' };
      }
    },
  },
  monitor: {
    description:
      'healthchecks-style ping URL of feed, sync, match and digest: /start, then success or /fail (a secret: it carries the token)',
    values: 'an https:// URL (plain http only to this machine)',
    secret: true,
    parse: (raw) => {
      const url = URL.canParse(raw) ? new URL(raw) : undefined;
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
        return { invalid: 'not an https URL' };
      return raw;
    },
  },
  'metrics-file': {
    description: 'Prometheus textfile that feed, sync, match and digest write after each run or poll',
    values: 'a file path ending in .prom',
    secret: false,
    parse: (raw) => (raw.endsWith('.prom') ? raw : { invalid: 'not a .prom file name' }),
  },
  'case-sla': {
    description: 'the deadline of each case match --open-cases opens, from the recall’s published_at (as --sla)',
    values:
      '<n>wd (working days, Mon-Fri; <n>wd:<country> without its public holidays), <n>h or <n>d; e.g. 2wd, 2wd:FR, 24h',
    secret: false,
    parse: (raw) => {
      const m = /^\s*(\d{1,4})\s*(wd|h|d)\s*(?::\s*([a-z]{2})\s*)?$/i.exec(raw);
      if (!m || Number(m[1]) < 1 || (m[3] !== undefined && m[2]!.toLowerCase() !== 'wd'))
        return { invalid: 'not a deadline' };
      return `${Number(m[1])}${m[2]!.toLowerCase()}${m[3] ? `:${m[3].toUpperCase()}` : ''}`;
    },
  },
} as const satisfies Record<string, ConfigKeyInfo>;

export type ConfigKey = keyof typeof CONFIG_KEY_INFO;

/** The settable keys, in the order help and `config list` show them. */
export const CONFIG_KEYS = Object.keys(CONFIG_KEY_INFO) as readonly ConfigKey[];

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_KEY_INFO, key);
}

/** Whether a key holds a secret (the config file must then be private). */
export function isSecretKey(key: string): boolean {
  return isConfigKey(key) && CONFIG_KEY_INFO[key].secret;
}

function closestKey(key: string): ConfigKey | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_.\s]/g, '');
  return CONFIG_KEYS.find((k) => squash(k) === squash(key));
}

/** Returns the key when it is settable; otherwise throws ConfigValueError naming the valid keys. */
export function validateConfigKey(key: string): ConfigKey {
  if (isConfigKey(key)) return key;
  const guess = closestKey(key);
  throw new ConfigValueError(
    `unknown config key "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}; valid keys: ${CONFIG_KEYS.join(', ')}`,
    { hint: 'run `recall-feed config --help` to see what each key does' },
  );
}

/**
 * Validates and normalizes a value given on the command line (surrounding whitespace is ignored):
 * numbers for page-size, timeout, max-wait and retries, strings for the rest.
 */
export function validateConfigValue(key: string, raw: string): ConfigValue {
  const info: ConfigKeyInfo = CONFIG_KEY_INFO[validateConfigKey(key)];
  const parsed = info.parse(raw.trim());
  if (typeof parsed === 'object') {
    // A secret is never echoed back, not even a mistyped one.
    const shown = info.secret ? '' : ` "${raw}"`;
    throw new ConfigValueError(`invalid value${shown} for ${key}: expected ${info.values}`);
  }
  return parsed;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Profile names: letters, digits, `_`, `.` and `-`, starting with a letter or digit, at most 64. */
export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new ConfigValueError(
      `invalid profile name "${name}": use letters, digits, "_", "." and "-", starting with a letter or digit (at most 64)`,
    );
  }
  return name;
}
