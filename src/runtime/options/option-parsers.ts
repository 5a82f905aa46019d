// Option parsing shared by several commands.
import { parseDuration } from '../../api/duration.js';
import { MAX_TIMER_MS } from '../../api/sleep.js';
import { timestampMicros } from '../../api/timestamps.js';
import { InvalidParamsError } from '../../api/api-errors.js';
import { checkOneOf, checkSources } from '../../api/params.js';
import { CatalogueColumnsError, type ColumnMap, parseColumnMap } from '../../match/catalogue-columns.js';
import { UsageError } from '../cli-errors.js';
import { checkKnownColumns } from './column-names.js';

/**
 * `--columns a,b,c` as a list; undefined when the flag is absent. With `known` (the recall feed's
 * fields), an unknown name is a usage error: a typo would otherwise give a silently empty column. So is a
 * name given twice, with or without `known`.
 */
export function parseColumns(raw: string | undefined, known?: readonly string[]): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (list.length === 0)
    throw new UsageError('--columns needs at least one column name', 'example: --columns id,product_name');
  const repeated = list.find((c, i) => list.indexOf(c) !== i);
  if (repeated !== undefined) {
    // Two columns of one name: csv readers would key them as one, and Parquet readers collapse them.
    const times = list.filter((c) => c === repeated).length;
    throw new UsageError(
      `--columns names ${repeated} ${times === 2 ? 'twice' : `${times} times`}`,
      `name each column once: --columns ${[...new Set(list)].join(',')}`,
    );
  }
  if (known) checkKnownColumns(list, known);
  return list;
}

/** Plain decimal digits: Number() alone would also take `1e3`, `0x10`, `0b1`, `1.0` and `+5`. */
const DECIMAL_DIGITS = /^\s*\d+\s*$/;

/** A whole number flag in [min, max]; undefined when the flag is absent. */
export function parseWholeNumber(
  raw: string | undefined,
  flag: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!DECIMAL_DIGITS.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${range}, not '${raw}'`);
  }
  return n;
}

/**
 * A comma-separated list of source ids, checked as the client checks them; undefined when absent.
 * `label` names where it came from (a flag, or the profile) and `hint` says how to mend it.
 */
export function parseSourceList(
  raw: string | undefined,
  label = '--sources',
  hint = 'example: --sources us_cpsc,uk_opss',
): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return asUsage(() => checkSources(ids, label), hint);
}

/** Re-raises the client's parameter checks (InvalidParamsError) as usage errors: exit 2, nothing sent. */
export function asUsage<T>(check: () => T, hint?: string): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof InvalidParamsError) throw new UsageError(err.message, hint);
    throw err;
  }
}

/** A closed flag's value (`--sort`, `--order`), checked as the client checks it; undefined when absent. */
export function parseOneOf<T extends string>(
  raw: string | undefined,
  choices: readonly T[],
  flag: string,
): T | undefined {
  return raw === undefined ? undefined : asUsage(() => checkOneOf(raw, choices, flag));
}

/** A plain decimal number of seconds: Number() alone would also take `1e3`, `0x10` and `Infinity`. */
const DECIMAL_SECONDS = /^\s*\d+(\.\d+)?\s*$/;

/**
 * A seconds flag (`--timeout`, `--interval`, ...) as milliseconds; undefined when absent. It must be at
 * least `min`, or above it when `above` is set (`--timeout 0` means nothing, `--max-wait 0` never waits).
 */
const MAX_TIMER_S = Math.floor(MAX_TIMER_MS / 1000);

export function parseSeconds(raw: string | undefined, flag: string, min: number, above = false): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  const ms = Math.round(n * 1000);
  // Every duration ends up in a timer, which Node cannot set beyond about 24.8 days; and one that rounds
  // to no more than `min` (`--timeout 0.0001` is 0 ms) would mean what `min` itself means.
  if (!DECIMAL_SECONDS.test(raw) || n < min || (above && n === min) || n * 1000 > MAX_TIMER_MS) {
    const range = above ? `greater than ${min}` : `${min} or more`;
    throw new UsageError(`${flag} must be a number of seconds ${range} and at most ${MAX_TIMER_S}, not '${raw}'`);
  }
  if (above && ms <= min * 1000) {
    throw new UsageError(
      `${flag} must be at least ${(min * 1000 + 1) / 1000} s (timers count whole milliseconds), not '${raw}'`,
    );
  }
  return ms;
}

/**
 * An instant as µs since the epoch: a duration back from now (`90m`, `36h`, `7d`, `2w`) or an ISO 8601
 * date or date-time (naive ones are UTC, as the API's are). Undefined when the flag is absent.
 */
export function parseInstant(raw: string | undefined, flag: string, nowMs: number): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const back = parseDuration(text);
  if (back !== undefined) return (nowMs - back) * 1000;
  const us = timestampMicros(text);
  if (!Number.isNaN(us)) return us;
  throw new UsageError(
    `${flag} must be a duration such as 36h or 7d, or an ISO date or date-time, not '${raw.slice(0, 100)}'`,
    `examples: ${flag} 7d, ${flag} 2026-01-15, ${flag} 2026-01-15T08:00:00Z`,
  );
}

/** --since and --until (query, stats, report): each as parseInstant reads it; a window that ends before it starts is refused. */
export function parseWindow(
  since: string | undefined,
  until: string | undefined,
  nowMs: number,
): { sinceUs: number | undefined; untilUs: number | undefined } {
  const sinceUs = parseInstant(since, '--since', nowMs);
  const untilUs = parseInstant(until, '--until', nowMs);
  // It would select nothing: a swapped pair, never an empty answer.
  if (sinceUs !== undefined && untilUs !== undefined && untilUs <= sinceUs)
    throw new UsageError(
      `--until ${until} is not after --since ${since}: the window would be empty`,
      'durations count back from now: --since 30d --until 7d is from 30 days ago to 7 days ago',
    );
  return { sinceUs, untilUs };
}

/** --map (match, report, digest, mcp), checked: a bad spec is a usage error. */
export function mapOf(raw: string | undefined): ColumnMap {
  if (raw === undefined) return {};
  try {
    return parseColumnMap(raw);
  } catch (err) {
    if (err instanceof CatalogueColumnsError) throw new UsageError(err.message);
    throw err;
  }
}
