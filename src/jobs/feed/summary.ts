// The one-line summary after a table: how many of how many, from which sources, over which window, quota left.
import { groupDigits } from '../../output/numbers.js';
import type { PagedResult } from '../../api/pagination.js';
import type { FeedParams, RateLimitInfo } from '../../api/schemas.js';

export function summaryLine(
  written: number,
  last: PagedResult<unknown> | undefined,
  rate: RateLimitInfo | undefined,
  /** With record filters: how many records were fetched to find the `written` that match. */
  fetched?: number,
  /** What the run asked for: said when the page has no data_sources or meta block (the API may leave them out). */
  asked: Pick<FeedParams, 'dataSources' | 'hoursAgo'> = {},
): string {
  if (!last) return 'no recalls';
  const total = groupDigits(last.pagination.total_count);
  const parts = [
    fetched === undefined
      ? `${groupDigits(written)} of ${total} recalls`
      : `${groupDigits(written)} matching of ${groupDigits(fetched)} fetched (${total} in the window)`,
  ];
  const sources = last.data_sources?.filtered ?? asked.dataSources ?? [];
  if (sources.length) parts.push(`from ${sources.join(', ')}`);
  const hours = last.meta ? last.meta.filters_applied.hours_ago : asked.hoursAgo;
  if (hours !== undefined) parts.push(`published in the last ${hours} h`);
  if (rate) {
    const quota = rate.monthly_quota === undefined ? '' : ` of ${groupDigits(rate.monthly_quota)}`;
    parts.push(`monthly quota left: ${groupDigits(rate.remaining_credits)}${quota}`);
  }
  return parts.join(' · ');
}
