// The library entry: `import { RecallFeedClient } from 'recall-feed'`.
export { RecallFeedClient } from './api/client.js';
export { isLoopbackHost } from './api/loopback.js';
export { DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES } from './api/constants.js';
export type { ClientOptions, ClientEvent, HealthResult } from './api/client.js';
export * from './api/api-errors.js';
export { errorFromResponse } from './api/error-mapping.js';
export type { PagedResult } from './api/pagination.js';
export type { PacingOverrides, PacingOverride, WindowName } from './api/pacing.js';
export type { ProxySettings } from './api/proxy.js';
export {
  BOUNDS,
  RECALL_FIELDS,
  SORT_FIELDS,
  SORT_ORDERS,
  SOURCE_IDS,
  SPEC_RATE_LIMITS,
  RecallSchema,
  SpecRecallSchema,
  FeedResponseSchema,
  SourcesResponseSchema,
  HealthResponseSchema,
  ErrorBodySchema,
  UnauthorizedSourcesDetailsSchema,
  RateLimitDetailsSchema,
  PaginationSchema,
  MetaSchema,
  RateLimitInfoSchema,
  DataSourcesInfoSchema,
  CustomFeedResponseSchema,
} from './api/schemas.js';
export type {
  Recall,
  SpecRecall,
  CustomRecord,
  FeedPage,
  FeedParams,
  Pagination,
  Meta,
  RateLimitInfo,
  DataSourcesInfo,
  DataSource,
  SourcesResponse,
  HealthResponse,
  SortField,
  SortOrder,
} from './api/schemas.js';
