// Resolves the global options: flag > environment > profile > default, in one documented place.
import {
  BOUNDS,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES,
} from '../api/constants.js';
import { parseDuration } from '../api/duration.js';
import type { PacingOverrides, WindowName } from '../api/pacing.js';
import { FORMATS, isFormat, type Format } from '../output/formats.js';
import { UsageError } from './cli-errors.js';
import { parseSeconds, parseSourceList, parseWholeNumber } from './options/option-parsers.js';

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
  /** The profile's case-sla: the deadline of the cases `match --open-cases` opens when --sla is not given. */
  profileCaseSla?: string | undefined;
  /** The webhook URL a bare --webhook uses: RECALL_FEED_WEBHOOK, else the profile's (a secret: never printed). */
  webhook: string | undefined;
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

export function parseFormat(raw: string, flag: string): Format {
  const name = raw.trim().toLowerCase();
  if (!isFormat(name)) throw new UsageError(`${flag} must be one of ${FORMATS.join(', ')}, not '${raw}'`);
  return name;
}

/**
 * `--pace minute=10/2s,hour=500/1h`: the client's own pacing. A window's count can only lower
 * what the API reports; its length replaces the spec's (for a sandbox started with shrunken windows).
 */
export function parsePacing(raw: string): PacingOverrides {
  const out: PacingOverrides = {};
  const bad = () =>
    new UsageError(`--pace must look like minute=30/1m,hour=500/1h (windows: minute, hour, day), not '${raw}'`);
  for (const part of raw.split(',')) {
    const m = /^(minute|hour|day)=(\d+)(?:\/(.+))?$/.exec(part.trim());
    if (!m) throw bad();
    const limit = Number(m[2]);
    if (limit < 1) throw bad();
    const windowMs = m[3] === undefined ? undefined : parseDuration(m[3]);
    if (m[3] !== undefined && !(windowMs !== undefined && windowMs > 0)) throw bad();
    out[m[1] as WindowName] = windowMs === undefined ? { limit } : { limit, windowMs };
  }
  return out;
}

const BASE_URL_CREDENTIALS_HINT =
  "give the API's address alone, e.g. https://api.deeprecall.io; the key goes in RECALL_FEED_API_KEY or `recall-feed config set api-key`";

function checkBaseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${source} is not a URL: '${raw}'`, 'example: --base-url https://api.deeprecall.io');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source} must be an http or https URL, not '${raw}'`);
  }
  // Never sent, yet printed in resume hints: refused, and the message does not repeat them.
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      `${source} holds a user name or password, which recall-feed never sends`,
      BASE_URL_CREDENTIALS_HINT,
    );
  }
  return raw.replace(/\/+$/, '');
}

function mib(n: number | undefined): number | undefined {
  return n === undefined ? undefined : n * 1024 * 1024;
}

function pick<T>(...candidates: [T | undefined, string][]): [T, string] | undefined {
  for (const [value, source] of candidates) if (value !== undefined && value !== '') return [value, source];
  return undefined;
}

function str(v: string | number | undefined): string | undefined {
  return v === undefined ? undefined : String(v);
}

export function resolveProfileName(flags: GlobalFlags, env: Record<string, string | undefined>): string {
  return flags.profile ?? (env.RECALL_FEED_PROFILE || 'default');
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
  const key = pick<string>(
    [flags.apiKey, 'flag'],
    [env.RECALL_FEED_API_KEY, 'env'],
    [env.DEEPRECALL_API_KEY, 'env'],
    [str(profileValues['api-key']), 'profile'],
  );
  const base = pick<string>(
    [flags.baseUrl, '--base-url'],
    [env.RECALL_FEED_BASE_URL, 'RECALL_FEED_BASE_URL'],
    [str(profileValues['base-url']), "the profile's base-url"],
  );
  const baseUrl = base ? checkBaseUrl(base[0], base[1]) : DEFAULT_BASE_URL;
  const timeout = pick<string>([flags.timeout, '--timeout'], [str(profileValues.timeout), "the profile's timeout"]);
  const maxWait = pick<string>(
    [flags.maxWait, '--max-wait'],
    [str(profileValues['max-wait']), "the profile's max-wait"],
  );
  const retries = pick<string>([flags.retries, '--retries'], [str(profileValues.retries), "the profile's retries"]);
  const apiKey = key?.[0].trim();
  const settings: Settings = {
    profile: resolveProfileName(flags, env),
    apiKey: apiKey === '' ? undefined : apiKey,
    apiKeySource: key?.[1] as Settings['apiKeySource'],
    baseUrl,
    format: flags.format === undefined ? undefined : parseFormat(flags.format, '--format'),
    profileFormat:
      profileValues.format === undefined
        ? undefined
        : parseFormat(String(profileValues.format), "the profile's format"),
    // The config store checked them, but the file may have been edited by hand.
    profileSources: parseSourceList(
      str(profileValues.sources),
      "the profile's sources",
      'fix it with `recall-feed config set sources ...`',
    ),
    webhook: pick<string>([env.RECALL_FEED_WEBHOOK, 'env'], [str(profileValues.webhook), 'profile'])?.[0],
    smtpUrl: pick<string>([env.RECALL_FEED_SMTP_URL, 'env'], [str(profileValues['smtp-url']), 'profile'])?.[0],
    emailFrom: str(profileValues['email-from']) || undefined,
    profileDb: str(profileValues.db) || undefined,
    profileCaseSla: str(profileValues['case-sla']) || undefined,
    profilePageSize: parseWholeNumber(
      str(profileValues['page-size']),
      "the profile's page-size",
      BOUNDS.pageSizeMin,
      BOUNDS.pageSizeMax,
    ),
    output: flags.output,
    quiet: flags.quiet ?? false,
    verbose: flags.verbose ?? false,
    timeoutMs: parseSeconds(timeout?.[0], timeout?.[1] ?? '', 0, true) ?? DEFAULT_TIMEOUT_MS,
    maxWaitMs: parseSeconds(maxWait?.[0], maxWait?.[1] ?? '', 0) ?? DEFAULT_MAX_WAIT_MS,
    retries: retries ? (parseWholeNumber(retries[0], retries[1], 0, MAX_RETRIES) as number) : DEFAULT_RETRIES,
    // At most 500: a JavaScript string holds about 512 MiB.
    maxResponseBytes: mib(parseWholeNumber(flags.maxResponseMb, '--max-response-mb', 1, 500)),
    pacing: flags.pace !== undefined ? parsePacing(flags.pace) : {},
    sandbox: flags.sandbox ?? false,
    allowInsecureHttp: flags.allowInsecureHttp ?? false,
  };
  if (settings.output === '') throw new UsageError('--output needs a file name');
  return settings;
}
