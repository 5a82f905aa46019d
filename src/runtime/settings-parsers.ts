// The small parsers of the settings table: each takes a raw value and the name of its source, returns what is stored.
import { checkSources } from '../api/params.js';
import { parseDuration } from '../api/duration.js';
import { isLoopbackHost } from '../api/loopback.js';
import { timestampMicros } from '../api/timestamps.js';
import type { PacingOverrides, WindowName } from '../api/pacing.js';
import { checkWebhookUrl } from '../actions/webhook-url.js';
import { parseAddresses, parseSmtpUrl } from '../actions/email-smtp.js';
import { FORMATS, isFormat } from '../output/formats.js';
import { DbTargetError, dbTarget, isDbUrl } from '../archive/db-target.js';
import { UsageError } from './cli-errors.js';
import { asUsage, parseSeconds, parseWholeNumber } from './options/option-parsers.js';

/** What a setting's value is kept as: in the config file, and before settings.ts turns it into a Settings field. */
export type SettingValue = string | number;

/**
 * A value a setting refuses, named by its source (`--timeout`, `RECALL_FEED_BASE_URL`, "the profile's
 * format"). `config set` reports it in its own words (`invalid value ... expected ...`), unless `configReason`
 * says why more plainly (and without the value).
 */
export class SettingValueError extends UsageError {
  readonly configReason: string | undefined;
  readonly configHint: string | undefined;
  constructor(message: string, hint?: string, config?: { reason: string; hint?: string }) {
    super(message, hint);
    this.configReason = config?.reason;
    this.configHint = config?.hint;
  }
}

/** `${source} must be ${what}`, with the value when it is no secret. */
function mustBe(source: string, what: string, raw: string, secret: boolean, hint?: string): SettingValueError {
  return new SettingValueError(`${source} must be ${what}${secret ? '' : `, not '${raw}'`}`, hint);
}

export function parseFormatValue(raw: string, source: string): string {
  const name = raw.trim().toLowerCase();
  if (!isFormat(name)) throw mustBe(source, `one of ${FORMATS.join(', ')}`, raw, false);
  return name;
}

const BASE_URL_CREDENTIALS = 'holds a user name or password, which recall-feed never sends';
const BASE_URL_QUERY = 'holds a query or fragment (after ? or #), which recall-feed never sends';

/**
 * A URL as an error may repeat it: whatever stands before its last `@` (a user name and password) left out, and its
 * query or fragment (a token) shown as `?…`.
 */
function withoutUserinfo(raw: string): string {
  // The user info first: a password may hold `#` or `?` (`gwuser:S3cr#t@host`), which must not cut it in two.
  const at = raw.lastIndexOf('@');
  const scheme = /^[a-z][\w+.-]*:\/\//i.exec(raw)?.[0] ?? '';
  const shown = at < 0 ? raw : `${scheme}…${raw.slice(at)}`;
  const cut = shown.search(/[?#]/);
  return cut < 0 ? shown : `${shown.slice(0, cut)}?…`;
}

/** A base URL refused for a part it holds (`what`), with its hint for a flag and for `config set base-url`. */
function refusedPart(source: string, what: string, hint: string, configHint: string): SettingValueError {
  return new SettingValueError(`${source} ${what}`, hint, { reason: `it ${what}`, hint: configHint });
}

/** http(s), a host, no credentials and no query (never sent, yet printed in resume hints: refused without repeating them). */
export function parseBaseUrl(raw: string, source: string): string {
  if (!URL.canParse(raw)) {
    throw new SettingValueError(
      `${source} is not a URL: '${withoutUserinfo(raw)}'`,
      'example: --base-url https://api.deeprecall.io',
    );
  }
  const url = new URL(raw);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new SettingValueError(`${source} must be an http or https URL, not '${withoutUserinfo(raw)}'`);
  }
  // A query (`?token=…`) or fragment is never sent either (each request sets its own query), yet would be printed in
  // resume hints and by `health`: refused, never repeated, as credentials are.
  const alone = "give the API's address alone, e.g. https://api.deeprecall.io";
  if (url.search !== '' || url.hash !== '')
    throw refusedPart(source, BASE_URL_QUERY, `${alone} (a path such as https://gw.example/recalls is kept)`, alone);
  if (url.username !== '' || url.password !== '') {
    const key = 'the key goes in RECALL_FEED_API_KEY or `recall-feed config set api-key`';
    throw refusedPart(
      source,
      BASE_URL_CREDENTIALS,
      `${alone}; ${key}`,
      `${alone}; the key goes in \`recall-feed config set api-key\``,
    );
  }
  return raw;
}

/** What an HTTP header can carry: a key with anything else (`config set api-key` took `dr_live_ключ`) is never sent. */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

export function parseApiKey(raw: string, source: string): string {
  const key = raw.trim();
  if (!KEY_CHARACTERS.test(key))
    throw mustBe(source, 'a non-empty key of printable ASCII characters, without whitespace', raw, true);
  return key;
}

/** Comma-separated source ids, each once, checked as the client checks them (as `--sources` is). */
export function parseSources(raw: string, source: string): string {
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return [...new Set(asUsage(() => checkSources(ids, source)))].join(',');
}

/** A whole number in [min, max], as every whole-number flag takes it. */
export function wholeNumber(min: number, max: number) {
  return (raw: string, source: string): number => parseWholeNumber(raw, source, min, max) as number;
}

/** Seconds, as every seconds flag takes them (no more than a timer holds); kept as seconds. */
export function seconds(min: number, above = false) {
  return (raw: string, source: string): number => {
    parseSeconds(raw, source, min, above);
    return Number(raw);
  };
}

export function parseWebhook(raw: string, source: string): string {
  try {
    checkWebhookUrl(raw);
  } catch {
    throw mustBe(source, 'an https:// URL (plain http only to this machine) without user:password@', raw, true);
  }
  return raw;
}

/**
 * The one check of a monitor's ping URL (--monitor, RECALL_FEED_MONITOR, the profile's, `config set monitor`):
 * https, or plain http to this machine only; no user:password@ (the URL itself carries the check's token, a secret).
 */
export function parseMonitor(raw: string, source: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new SettingValueError(`${source} must be an https URL`, 'e.g. --monitor https://hc-ping.com/<uuid>');
  if (url.username !== '' || url.password !== '')
    throw new SettingValueError(`${source} must not carry user:password@`, 'the ping URL itself carries the token');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new SettingValueError(`refusing to ping a plain http monitor on ${url.hostname}`, 'use https');
  return raw;
}

export function parseDb(raw: string, source: string): string {
  // No URL at all is said in the table's words, as any refused value is.
  if (raw === '' || (isDbUrl(raw) && !URL.canParse(raw.trim())))
    throw mustBe(source, 'a file path or a postgres:// URL', raw, true);
  // A URL as opening it would refuse it, refused as it is stored (`config set db`): the message masks the password.
  if (isDbUrl(raw))
    try {
      dbTarget(raw);
    } catch (err) {
      if (err instanceof DbTargetError)
        throw new SettingValueError(`${source}: ${err.message}`, undefined, { reason: err.message });
      throw err;
    }
  return raw;
}

export function parseSmtp(raw: string, source: string): string {
  try {
    parseSmtpUrl(raw);
  } catch {
    throw mustBe(source, 'an smtp:// or smtps:// URL', raw, true);
  }
  return raw;
}

export function parseEmailFrom(raw: string, source: string): string {
  let list: string[];
  try {
    list = parseAddresses(raw, source);
  } catch {
    throw mustBe(source, 'an e-mail address', raw, false);
  }
  if (list.length !== 1) throw mustBe(source, 'one e-mail address', raw, false);
  return list[0] as string;
}

export function parseMetricsFile(raw: string, source: string): string {
  if (!raw.endsWith('.prom')) throw mustBe(source, 'a file name ending in .prom', raw, false);
  return raw;
}

const DEADLINE_HINT =
  'e.g. 2wd (two working days, Monday to Friday), 24h or 3d, counted from the recall’s published_at';

/**
 * The one check of a case deadline, normalized: `2wd` (working days), `24h`, `3d`; with `withCalendar` also
 * `2wd:FR` (working days less that country's public holidays), as the case-sla setting takes it (match --sla
 * takes its calendar from --calendar instead).
 */
export function parseDeadline(raw: string, source: string, withCalendar: boolean): string {
  const m = /^\s*(\d{1,4})\s*(wd|h|d)\s*(?::\s*([a-z]{2})\s*)?$/i.exec(raw);
  if (!m || Number(m[1]) < 1 || (m[3] !== undefined && (!withCalendar || m[2]!.toLowerCase() !== 'wd'))) {
    throw new SettingValueError(`${source} ${raw}: not a deadline`, DEADLINE_HINT);
  }
  return `${Number(m[1])}${m[2]!.toLowerCase()}${m[3] ? `:${m[3].toUpperCase()}` : ''}`;
}

/** `2wd`, `2wd:FR`, `24h`, `3d`: the case-sla setting, normalized. */
export function parseCaseSla(raw: string, source: string): string {
  return parseDeadline(raw, source, true);
}

export function parseLogFormat(raw: string, source: string): string {
  const value = raw.trim().toLowerCase();
  if (value !== 'text' && value !== 'json') throw mustBe(source, 'text or json', raw, false);
  return value;
}

/** A date-time that ends with its zone: `Z`, `+02:00` or `+0200`. */
const ZONED_TIME = /T.*(Z|[+-]\d{2}:?\d{2})$/;

/**
 * `2026-06-01T12:00:00Z`: the instant --sandbox-now pins, in epoch ms. A zone is required, so that the
 * pinned world is the same on every machine whatever its TZ; otherwise read as --since reads a time
 * (`timestampMicros`: `+02:00` or `+0200`, and no 30 February, which Date.parse rolls over into March).
 */
export function parseSandboxNow(raw: string, source: string): number {
  const value = raw.trim().toUpperCase();
  const notATime = () => mustBe(source, 'an ISO 8601 time with its zone, e.g. 2026-06-01T12:00:00Z', raw, false);
  if (!ZONED_TIME.test(value)) throw notATime();
  const us = timestampMicros(value);
  if (!Number.isNaN(us)) return Math.floor(us / 1000);
  // The form of a time, on a day its month does not have (2026-02-29): said so, rather than that the zone is missing.
  if (!Number.isNaN(timestampMicros(`${value.slice(0, 8)}01${value.slice(10)}`))) {
    const days = new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)), 0)).getUTCDate();
    throw new SettingValueError(`${source} ${raw.trim()}: no such day`, `${value.slice(0, 7)} has ${days} days`);
  }
  throw notATime();
}

/**
 * `--pace minute=10/2s,hour=500/1h`: the client's own pacing. A window's count can only lower
 * what the API reports; its length replaces the spec's (for a sandbox started with shrunken windows).
 */
export function parsePacing(raw: string, source = '--pace'): PacingOverrides {
  const out: PacingOverrides = {};
  const bad = () =>
    new SettingValueError(
      `${source} must look like minute=30/1m,hour=500/1h (windows: minute, hour, day), not '${raw}'`,
    );
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

/** Profile names: letters, digits, `_`, `.` and `-`, starting with a letter or digit, at most 64. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** --profile and RECALL_FEED_PROFILE, checked as `config set` checks a profile's name. */
export function parseProfileName(raw: string, source: string): string {
  if (!PROFILE_NAME.test(raw))
    throw mustBe(source, 'letters, digits, "_", "." and "-", starting with a letter or digit (at most 64)', raw, false);
  return raw;
}
