// A tool's `since`: a duration back from now (36h, 7d, 2w) or an ISO 8601 date or date-time, as the CLI's --since reads it.
import { parseDuration } from '../api/duration.js';
import { timestampMicros } from '../api/timestamps.js';
import { UsageError } from '../runtime/cli-errors.js';

/** µs since the epoch; undefined when not given. */
export function sinceMicros(raw: string | undefined, nowMs: number): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const back = parseDuration(text);
  if (back !== undefined) return (nowMs - back) * 1000;
  const us = timestampMicros(text);
  if (!Number.isNaN(us)) return us;
  throw new UsageError(`since must be a duration such as 36h or 7d, or an ISO date, not '${raw.slice(0, 100)}'`);
}
