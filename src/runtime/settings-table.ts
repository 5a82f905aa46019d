// The one table of settings: key, flag, environment, default, parser, secrecy and description of each. Resolution
// (settings.ts), `config set/get/unset` (config/config-keys.ts), the global flags' help, `help environment` and
// docs/settings-table.md are all derived from it. Plain data and small parsers: the root help loads it.
import {
  BOUNDS,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES,
} from '../api/constants.js';
import { MAX_TIMER_MS } from '../api/sleep.js';
import { FORMATS } from '../output/formats.js';
import {
  parseApiKey,
  parseBaseUrl,
  parseCaseSla,
  parseDb,
  parseEmailFrom,
  parseFormatValue,
  parseLogFormat,
  parseProfileName,
  parseMetricsFile,
  parseMonitor,
  parsePacing,
  parseSandboxNow,
  parseSmtp,
  parseSources,
  parseWebhook,
  type SettingValue,
  seconds,
  wholeNumber,
} from './settings-parsers.js';
import { MCP_TOKEN_ROW } from './mcp-token-setting.js';

export interface SettingRow {
  /** The setting's name: its config key where it has one, else its flag's name. */
  readonly name: string;
  /** Its key in the profile (`config set <key>`); none: only a flag or the environment sets it. */
  readonly key?: string;
  /** Its flag, as help shows it. */
  readonly flag?: string;
  /** The commands whose help offers that flag, when it is no global flag (test/unit/settings-table-commands.test.ts). */
  readonly command?: string;
  /** Its environment variables, the first found wins. */
  readonly env?: readonly string[];
  /** What applies when no source gives it. */
  readonly default: string;
  /** What it accepts, as `config set` errors and the docs say it. */
  readonly values: string;
  /** Shown masked by `config get/list`, never echoed in an error, read from stdin by a bare `config set`. */
  readonly secret: boolean;
  readonly description: string;
  /**
   * The one check of a value from any source (a flag, the environment, the profile, `config set`): returns
   * what is stored (numbers for numbers), or throws SettingValueError naming `source`.
   */
  readonly parse: (raw: string, source: string) => SettingValue;
}

const MAX_TIMER_S = Math.floor(MAX_TIMER_MS / 1000);
const URL_PLAIN_HTTP_LOCAL = 'an https:// URL (plain http only to this machine)';

/** In the order help, docs and `config list` show them. */
export const SETTINGS: readonly SettingRow[] = [
  {
    name: 'profile',
    flag: '--profile <name>',
    env: ['RECALL_FEED_PROFILE'],
    default: '"default"',
    values: 'letters, digits, _, . and -, starting with a letter or digit (at most 64)',
    secret: false,
    description: 'config profile',
    parse: parseProfileName,
  },
  {
    name: 'api-key',
    key: 'api-key',
    flag: '--api-key <key>',
    env: ['RECALL_FEED_API_KEY', 'DEEPRECALL_API_KEY'],
    default: 'none',
    values: 'a non-empty key of printable ASCII characters, without whitespace',
    secret: true,
    description: 'the API key (a secret), sent as X-API-Key',
    parse: parseApiKey,
  },
  {
    name: 'webhook',
    key: 'webhook',
    flag: '--webhook [url]',
    command: 'feed, sync, match, digest, doctor',
    env: ['RECALL_FEED_WEBHOOK'],
    default: 'none',
    values: URL_PLAIN_HTTP_LOCAL,
    secret: true,
    description: 'where a bare --webhook posts new recalls (a secret: it carries the channel token)',
    parse: parseWebhook,
  },
  {
    name: 'base-url',
    key: 'base-url',
    flag: '--base-url <url>',
    env: ['RECALL_FEED_BASE_URL'],
    default: DEFAULT_BASE_URL,
    values: 'an http:// or https:// URL',
    secret: false,
    description: 'API address',
    parse: parseBaseUrl,
  },
  {
    name: 'format',
    key: 'format',
    flag: '-f, --format <format>',
    default: 'table on a terminal, else jsonl; with -o, the file extension before the profile',
    values: FORMATS.join(', '),
    secret: false,
    description: 'default output format of records',
    parse: parseFormatValue,
  },
  {
    name: 'sources',
    key: 'sources',
    flag: '--sources <ids>',
    command: 'feed, sync, match, digest, query, stats',
    default: 'all the key may use',
    values: 'comma-separated source ids of a-z, 0-9 and _ (e.g. us_cpsc,uk_opss)',
    secret: false,
    description: 'default data sources of feed and sync, comma-separated ids (the others take the flag alone)',
    parse: parseSources,
  },
  {
    name: 'page-size',
    key: 'page-size',
    flag: '--page-size <n>',
    command: 'feed',
    default: String(BOUNDS.pageSizeMax),
    values: `a whole number from ${BOUNDS.pageSizeMin} to ${BOUNDS.pageSizeMax}`,
    secret: false,
    description: 'records requested per page',
    parse: wholeNumber(BOUNDS.pageSizeMin, BOUNDS.pageSizeMax),
  },
  {
    name: 'timeout',
    key: 'timeout',
    flag: '--timeout <seconds>',
    default: String(DEFAULT_TIMEOUT_MS / 1000),
    values: `a number of seconds greater than 0 and at most ${MAX_TIMER_S}`,
    secret: false,
    description: 'seconds to wait for each HTTP request, headers and body',
    parse: seconds(0, true),
  },
  {
    name: 'max-wait',
    key: 'max-wait',
    flag: '--max-wait <seconds>',
    default: String(DEFAULT_MAX_WAIT_MS / 1000),
    values: `a number of seconds, 0 or more and at most ${MAX_TIMER_S}`,
    secret: false,
    description: 'longest wait for a rate limit before giving up, in seconds (0: never wait)',
    parse: seconds(0),
  },
  {
    name: 'retries',
    key: 'retries',
    flag: '--retries <n>',
    default: String(DEFAULT_RETRIES),
    values: `a whole number from 0 to ${MAX_RETRIES}`,
    secret: false,
    description: 'retries of a failed request (5xx, timeouts, connection errors, cut bodies)',
    parse: wholeNumber(0, MAX_RETRIES),
  },
  {
    name: 'max-response-mb',
    flag: '--max-response-mb <n>',
    default: String(DEFAULT_MAX_RESPONSE_BYTES / 2 ** 20),
    // At most 500: a JavaScript string holds about 512 MiB.
    values: 'a whole number from 1 to 500',
    secret: false,
    description: 'largest answer read, in MiB after decompression',
    parse: wholeNumber(1, 500),
  },
  {
    name: 'pace',
    flag: '--pace <spec>',
    default: "the API's own limits",
    values: 'minute=<n>[/<window>], hour=..., day=..., comma-separated (e.g. minute=30/1m,hour=500/1h)',
    secret: false,
    description: "own pacing: fewer requests than the API allows, or a sandbox's shrunken window",
    parse: (raw, source) => {
      parsePacing(raw, source);
      return raw;
    },
  },
  {
    name: 'db',
    key: 'db',
    flag: '--db <file|url>',
    command: 'sync, query, show, stats, digest, match, cases, report, doctor, mcp',
    env: ['RECALL_FEED_DB'],
    default: '$XDG_DATA_HOME/recall-feed/recalls.db (~/.local/share/recall-feed/recalls.db)',
    values: 'a file path or a postgres:// URL',
    secret: true,
    description: 'the archive: a file, or a postgres:// URL (a secret: it may carry a password)',
    parse: parseDb,
  },
  {
    name: 'smtp-url',
    key: 'smtp-url',
    flag: '--smtp-url <url>',
    command: 'feed, sync, match, digest',
    env: ['RECALL_FEED_SMTP_URL'],
    default: 'none',
    values: 'smtp://user:password@host:587 or smtps://user:password@host:465',
    secret: true,
    description: 'the SMTP server of --email (a secret: it carries the password)',
    parse: parseSmtp,
  },
  {
    name: 'email-from',
    key: 'email-from',
    flag: '--email-from <address>',
    command: 'feed, sync, match, digest',
    default: 'none',
    values: 'one e-mail address, e.g. recalls@example.com',
    secret: false,
    description: 'the sender address of --email',
    parse: parseEmailFrom,
  },
  {
    name: 'monitor',
    key: 'monitor',
    flag: '--monitor <url>',
    command: 'feed, sync, match, digest',
    env: ['RECALL_FEED_MONITOR'],
    default: 'none',
    values: URL_PLAIN_HTTP_LOCAL,
    secret: true,
    description: 'healthchecks-style ping URL: /start, then success or /fail (a secret: it carries the token)',
    parse: parseMonitor,
  },
  {
    name: 'metrics-file',
    key: 'metrics-file',
    flag: '--metrics-file <file>',
    command: 'feed, sync, match, digest',
    env: ['RECALL_FEED_METRICS_FILE'],
    default: 'none',
    values: 'a file path ending in .prom',
    secret: false,
    description: 'Prometheus textfile written after each run or poll',
    parse: parseMetricsFile,
  },
  {
    name: 'case-sla',
    key: 'case-sla',
    flag: '--sla <deadline>',
    command: 'match --open-cases',
    default: 'none',
    values:
      '<n>wd (working days, Mon-Fri; <n>wd:<country> without its public holidays), <n>h or <n>d; e.g. 2wd, 2wd:FR, 24h',
    secret: false,
    description: 'the deadline of each case match --open-cases opens, from the recall’s published_at',
    parse: parseCaseSla,
  },
  MCP_TOKEN_ROW,
  {
    name: 'log-format',
    flag: '--log-format <format>',
    env: ['RECALL_FEED_LOG_FORMAT'],
    default: 'text',
    values: 'text or json',
    secret: false,
    description: 'stderr as text, or json: one object per line',
    parse: parseLogFormat,
  },
  {
    name: 'sandbox-now',
    flag: '--sandbox-now <time>',
    env: ['RECALL_FEED_SANDBOX_NOW'],
    default: 'the real time',
    values: 'an ISO 8601 time with its zone, e.g. 2026-06-01T12:00:00Z',
    secret: false,
    description:
      'pins "now" of a --sandbox run and of `recall-feed sandbox` (reproducible examples: docs/sandbox-and-filters.md)',
    parse: parseSandboxNow,
  },
];

/** The row of a setting by its name; throws for a name the table lacks (a typo in the code, not the user's). */
export function setting(name: string): SettingRow {
  const row = SETTINGS.find((r) => r.name === name);
  if (!row) throw new Error(`no setting named ${name}`);
  return row;
}
