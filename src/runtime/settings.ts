// Resolves the global options: flag > environment > profile > default, from the one table (settings-table.ts).
import { DEFAULT_BASE_URL, DEFAULT_MAX_WAIT_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from '../api/constants.js';
import type { PacingOverrides } from '../api/pacing.js';
import type { Format } from '../output/formats.js';
import { UsageError } from './cli-errors.js';
import { parsePacing, type SettingValue } from './settings-parsers.js';
import { longFlag } from './setting-flags.js';
import { setting } from './settings-table.js';

export type { Format } from '../output/formats.js';

/** Global options as commander parsed them. */
export interface GlobalFlags {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  format?: string;
  output?: string;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  timeout?: string;
  maxWait?: string;
  retries?: string;
  maxResponseMb?: string;
  pace?: string;
  sandbox?: boolean;
  sandboxNow?: string;
  allowInsecureHttp?: boolean;
}

/** The values a profile may hold (config keys). */
export type ProfileValues = Record<string, string | number | undefined>;

export interface Settings {
  profile: string;
  apiKey: string | undefined;
  apiKeySource: 'flag' | 'env' | 'profile' | undefined;
  baseUrl: string;
  /** --format, or undefined to pick by the -o extension, the profile, then the terminal. */
  format: Format | undefined;
  /** The profile's format, checked. */
  profileFormat: Format | undefined;
  /** The profile's sources, checked; `feed --sources` overrides them. */
  profileSources: string[] | undefined;
  /** The profile's page-size, checked; `feed --page-size` overrides it. */
  profilePageSize: number | undefined;
  /** The profile's archive file; `--db` and RECALL_FEED_DB come first. */
  profileDb: string | undefined;
  /** The ping URL of feed, sync, match and digest: --monitor, RECALL_FEED_MONITOR, the profile's (a secret; checked when pinged). */
  monitor: string | undefined;
  /**
   * The Prometheus textfile of feed, sync, match and digest: --metrics-file, RECALL_FEED_METRICS_FILE, the profile's.
   * Checked (a name ending .prom) only by those commands (`runReporting`) and doctor: another command never writes it.
   */
  metricsFile: string | undefined;
  /** The profile's case-sla: the deadline of the cases `match --open-cases` opens when --sla is not given. */
  profileCaseSla?: string | undefined;
  /** The webhook URL a bare --webhook uses: RECALL_FEED_WEBHOOK, else the profile's (a secret: never printed). */
  webhook: string | undefined;
  /** Where `webhook` came from (the environment or the profile), as an error names it: `RECALL_FEED_WEBHOOK`. */
  webhookFrom?: Pick<SettingSource, 'from' | 'source'>;
  /** The SMTP server of --email: RECALL_FEED_SMTP_URL, else the profile's smtp-url (a secret: never printed). */
  smtpUrl: string | undefined;
  /** The profile's email-from: the sender of --email when --email-from is not given. */
  emailFrom: string | undefined;
  output: string | undefined;
  quiet: boolean;
  verbose: boolean;
  timeoutMs: number;
  maxWaitMs: number;
  retries: number;
  /** --max-response-mb in bytes; undefined leaves the client's default. */
  maxResponseBytes: number | undefined;
  pacing: PacingOverrides;
  sandbox: boolean;
  allowInsecureHttp: boolean;
}

export type Env = Record<string, string | undefined>;

/** Where a setting's value came from: `--timeout`, `RECALL_FEED_BASE_URL`, "the profile's timeout". */
export interface SettingSource {
  raw: string;
  from: 'flag' | 'env' | 'profile';
  /** How an error names it. */
  source: string;
}

const camel = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The first of flag > environment > profile that gives the setting a value (an empty one counts as none),
 * from the table's flag, variables and key; undefined: its default applies. `flags` holds commander's values
 * by their camel-case names (the global flags, or a command's own such as `sources`).
 */
export function settingSource(
  name: string,
  flags: Readonly<Record<string, unknown>>,
  env: Env,
  profileValues: ProfileValues,
): SettingSource | undefined {
  const row = setting(name);
  const flag = longFlag(row);
  const candidates: SettingSource[] = [];
  const given = flag === undefined ? undefined : flags[camel(flag)];
  // An empty flag is a mistake to say, not a setting to skip: `--base-url ''` would send the key to the default API.
  if (typeof given === 'string' && given.trim() === '') throw new UsageError(`${flag} needs a value`);
  if (typeof given === 'string') candidates.push({ raw: given, from: 'flag', source: flag as string });
  for (const variable of row.env ?? []) {
    const value = env[variable];
    if (value !== undefined) candidates.push({ raw: value, from: 'env', source: variable });
  }
  const stored = row.key === undefined ? undefined : profileValues[row.key];
  if (stored !== undefined)
    candidates.push({ raw: String(stored), from: 'profile', source: `the profile's ${row.key}` });
  return candidates.find((c) => c.raw !== '');
}

/** Where a setting came from, without its value. */
function sourceOnly(at: SettingSource | undefined): Pick<SettingSource, 'from' | 'source'> | undefined {
  return at && { from: at.from, source: at.source };
}

/** The setting's value checked by the table's parser; a bad value in the profile says how to mend it. */
function checked(name: string, at: SettingSource | undefined): SettingValue | undefined {
  if (at === undefined) return undefined;
  try {
    return setting(name).parse(at.raw, at.source);
  } catch (err) {
    if (at.from === 'profile' && err instanceof UsageError && err.hint === undefined) {
      throw new UsageError(err.message, `fix it with \`recall-feed config set ${name} ...\``);
    }
    throw err;
  }
}

function resolved(name: string, flags: GlobalFlags, env: Env, profileValues: ProfileValues) {
  return checked(name, settingSource(name, flags as Record<string, unknown>, env, profileValues));
}

/** The profile's value alone (the command's own flag, if any, is resolved by the command). */
function fromProfile(name: string, profileValues: ProfileValues): SettingValue | undefined {
  return checked(name, settingSource(name, {}, {}, profileValues));
}

function str(v: string | number | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : String(v);
}

/** Where a run reports, and its profile's archive: what --monitor and --metrics-file need before the rest is checked. */
export type RunReporting = Pick<Settings, 'monitor' | 'metricsFile' | 'profileDb'>;

/**
 * The monitor and the metrics file from the table (flag > environment > profile; a command without the flags
 * takes the others), and the profile's db, for a command that reports (feed, sync, match, digest): a run reports
 * even when its other settings are refused. Throws only for a metrics file `config set metrics-file` would refuse (a
 * name not ending .prom: never an archive or a device by mistake).
 */
export function runReporting(
  flags: Readonly<Record<string, unknown>>,
  env: Env,
  profileValues: ProfileValues,
): RunReporting {
  return {
    ...reportingRaw(flags, env, profileValues),
    metricsFile: checked('metrics-file', settingSource('metrics-file', flags, env, profileValues)) as
      | string
      | undefined,
  };
}

/** As `runReporting`, unchecked: every command's settings carry them, and only those that report check them. */
function reportingRaw(flags: Readonly<Record<string, unknown>>, env: Env, profileValues: ProfileValues): RunReporting {
  return {
    monitor: settingSource('monitor', flags, env, profileValues)?.raw,
    metricsFile: settingSource('metrics-file', flags, env, profileValues)?.raw,
    profileDb: str(profileValues.db),
  };
}

/** Where --sandbox-now's instant comes from: the flag, else RECALL_FEED_SANDBOX_NOW (no profile key: a pin is per run). */
export function sandboxNowSource(flags: GlobalFlags, env: Env): SettingSource | undefined {
  return settingSource('sandbox-now', flags as Record<string, unknown>, env, {});
}

/** --profile, else RECALL_FEED_PROFILE, else "default"; a name `config set` would refuse is refused here too (exit 2). */
export function resolveProfileName(flags: GlobalFlags, env: Env): string {
  const at = settingSource('profile', flags as Record<string, unknown>, env, {});
  return at === undefined ? 'default' : (checked('profile', at) as string);
}

/** `--timeout=` (or `--pace ''`) is a mistake, never a way to ask for the default. */
function refuseEmpty(flags: GlobalFlags): void {
  const given: [string | undefined, string, string][] = [
    [flags.timeout, '--timeout', 'a number of seconds, e.g. --timeout 30'],
    [flags.maxWait, '--max-wait', 'a number of seconds, e.g. --max-wait 60'],
    [flags.retries, '--retries', 'a whole number, e.g. --retries 3'],
    [flags.maxResponseMb, '--max-response-mb', 'a whole number of MiB, e.g. --max-response-mb 64'],
    [flags.pace, '--pace', 'e.g. --pace minute=30/1m,hour=500/1h'],
  ];
  for (const [value, flag, example] of given) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`, example);
  }
}

/** Every global setting with its source decided. Throws UsageError on a bad value. */
export function resolveSettings(
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
  profileValues: ProfileValues,
): Settings {
  refuseEmpty(flags);
  // Checked only: the stream's format was chosen before commander parsed the line (logFormatOf), which keeps text for
  // a value it cannot read; a bad flag commander refused, a bad RECALL_FEED_LOG_FORMAT is refused here.
  resolved('log-format', flags, env, profileValues);
  const key = settingSource('api-key', flags as Record<string, unknown>, env, profileValues);
  // Not the table's parser: a key with a control character is refused before any request, as a bad key (exit 3).
  const apiKey = key?.raw.trim();
  const base = resolved('base-url', flags, env, profileValues);
  const number = (name: string) => resolved(name, flags, env, profileValues) as number | undefined;
  const timeout = number('timeout');
  const maxWait = number('max-wait');
  const maxResponseMb = number('max-response-mb');
  const profileSources = str(fromProfile('sources', profileValues));
  // Only read here: the commands that use them check them (with their own flag) when they do.
  const raw = (name: string) => settingSource(name, {}, env, profileValues)?.raw;
  const settings: Settings = {
    profile: resolveProfileName(flags, env),
    apiKey: apiKey === '' ? undefined : apiKey,
    apiKeySource: key?.from,
    baseUrl: base === undefined ? DEFAULT_BASE_URL : String(base).replace(/\/+$/, ''),
    format:
      flags.format === undefined
        ? undefined
        : (checked('format', { raw: flags.format, from: 'flag', source: '--format' }) as Format),
    profileFormat: fromProfile('format', profileValues) as Format | undefined,
    // The config store checked them, but the file may have been edited by hand.
    profileSources: profileSources?.split(','),
    webhook: raw('webhook'),
    // Where from, not the value again (a secret: `webhook` holds it).
    webhookFrom: sourceOnly(settingSource('webhook', {}, env, profileValues)),
    smtpUrl: raw('smtp-url'),
    emailFrom: str(profileValues['email-from']),
    ...reportingRaw(flags as Record<string, unknown>, env, profileValues),
    profileCaseSla: str(profileValues['case-sla']),
    profilePageSize: fromProfile('page-size', profileValues) as number | undefined,
    output: flags.output,
    quiet: flags.quiet ?? false,
    verbose: flags.verbose ?? false,
    timeoutMs: timeout === undefined ? DEFAULT_TIMEOUT_MS : Math.round(timeout * 1000),
    maxWaitMs: maxWait === undefined ? DEFAULT_MAX_WAIT_MS : Math.round(maxWait * 1000),
    retries: number('retries') ?? DEFAULT_RETRIES,
    maxResponseBytes: maxResponseMb === undefined ? undefined : maxResponseMb * 1024 * 1024,
    pacing: flags.pace !== undefined ? parsePacing(flags.pace, '--pace') : {},
    sandbox: flags.sandbox ?? false,
    allowInsecureHttp: flags.allowInsecureHttp ?? false,
  };
  if (settings.output === '') throw new UsageError('--output needs a file name');
  return settings;
}
