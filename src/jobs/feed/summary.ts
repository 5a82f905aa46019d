// The one-line summary after a table: how many of how many, from which sources, over which window, quota left.
import { groupDigits } from '../../output/numbers.js';
import type { PagedResult } from '../../api/pagination.js';
import type { RateLimitInfo } from '../../api/schemas.js';

export function summaryLine(
  written: number,
  last: PagedResult<unknown> | undefined,
  rate: RateLimitInfo | undefined,
  /** With record filters: how many records were fetched to find the `written` that match. */
  fetched?: number,
): string {
  if (!last) return 'no recalls';
  const total = groupDigits(last.pagination.total_count);
  const parts = [
    fetched === undefined
      ? `${groupDigits(written)} of ${total} recalls`
      : `${groupDigits(written)} matching of ${groupDigits(fetched)} fetched (${total} in the window)`,
  ];
  const sources = last.data_sources.filtered;
  if (sources.length) parts.push(`from ${sources.join(', ')}`);
  const hours = last.meta.filters_applied.hours_ago;
  if (hours !== undefined) parts.push(`published in the last ${hours} h`);
  if (rate) {
    const quota = rate.monthly_quota === undefined ? '' : ` of ${groupDigits(rate.monthly_quota)}`;
    parts.push(`monthly quota left: ${groupDigits(rate.remaining_credits)}${quota}`);
  }
  return parts.join(' · ');
}
