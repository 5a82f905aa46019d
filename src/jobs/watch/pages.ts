// The pages of the planned feed (standard or custom), from the client.
import type { PagedResult } from '../../api/pagination.js';
import type { ApiSession } from '../../runtime/api-session.js';
import type { FeedPollPlan } from './plan.js';

export type FeedRecord = Record<string, unknown>;
export type Page = PagedResult<FeedRecord>;

/** Pages from `cursor` (or the start of the window) on; the client paces, waits and retries. */
export function pagesOf(
  session: ApiSession,
  plan: Pick<FeedPollPlan, 'params' | 'custom'>,
  cursor?: string,
): AsyncGenerator<Page> {
  const params = cursor === undefined ? plan.params : { ...plan.params, cursor };
  return plan.custom
    ? session.client.customFeedPages(plan.custom, params)
    : (session.client.feedPages(params) as AsyncGenerator<Page>);
}
