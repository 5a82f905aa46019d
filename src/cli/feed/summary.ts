// The one-line summary after a table: how many of how many, from which sources, over which window, quota left.
import type { PagedResult } from '../../api/pagination.js';
import type { RateLimitInfo } from '../../api/schemas.js';

const n = (v: number) => v.toLocaleString('en-US');

export function summaryLine(
  written: number,
  last: PagedResult<unknown> | undefined,
  rate: RateLimitInfo | undefined,
): string {
  if (!last) return 'no recalls';
  const parts = [`${n(written)} of ${n(last.pagination.total_count)} recalls`];
  const sources = last.data_sources.filtered;
  if (sources.length) parts.push(`from ${sources.join(', ')}`);
  const hours = last.meta.filters_applied.hours_ago;
  if (hours !== undefined) parts.push(`published in the last ${hours} h`);
  if (rate) {
    const quota = rate.monthly_quota === undefined ? '' : ` of ${n(rate.monthly_quota)}`;
    parts.push(`monthly quota left: ${n(rate.remaining_credits)}${quota}`);
  }
  return parts.join(' · ');
}
