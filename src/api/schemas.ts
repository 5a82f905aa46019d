// zod schemas for every body the API sends: the one source of truth for the client and the sandbox.
import { z } from 'zod';
import type { SortField, SortOrder } from './constants.js';

export {
  BOUNDS,
  CUSTOM_FEED_NAME,
  RECALL_FIELDS,
  SORT_FIELDS,
  SORT_ORDERS,
  SOURCE_IDS,
  SPEC_RATE_LIMITS,
  type SortField,
  type SortOrder,
} from './constants.js';

export const InvolvedPartySchema = z.looseObject({
  name: z.string(),
  role: z.string(),
  country: z.string(),
});

/**
 * The full record shape of the spec. The sandbox generates records of this shape and the tests check
 * it; the client validates with the lenient RecallSchema below.
 */
export const SpecRecallSchema = z.looseObject({
  id: z.number().int(),
  data_source: z.string(),
  source_case_id: z.string(),
  source_url: z.string(),
  alert_title: z.string(),
  alert_summary: z.string(),
  risk_severity: z.string(),
  risk_types: z.array(z.string()),
  hazard_description: z.string(),
  measure_types: z.array(z.string()),
  measure_details: z.string(),
  product_category: z.string(),
  product_name: z.string(),
  product_brand: z.string(),
  product_model_numbers: z.array(z.string()),
  product_description: z.string(),
  packaging_description: z.string().nullable(),
  production_dates: z.string(),
  images: z.array(z.string()),
  standard_identifiers_and_barcodes: z.array(z.unknown()),
  involved_parties: z.array(InvolvedPartySchema),
  standards_cited: z.array(z.unknown()),
  geo_jurisdictions: z.array(z.string()),
  notifying_authority: z.string(),
  country_of_origin: z.string(),
  counterfeit: z.string().nullable(),
  alert_status: z.string(),
  published_at: z.string(),
  updated_at: z.string(),
  created_in_db_at: z.string(),
});
export type SpecRecall = z.infer<typeof SpecRecallSchema>;

/**
 * What the client relies on: an integer id, the source and the three sort timestamps. Every other
 * field, known or not, passes through untouched, so a new field in the API never breaks the tool.
 */
export const RecallSchema = z.looseObject({
  id: z.number().int(),
  data_source: z.string(),
  published_at: z.string(),
  updated_at: z.string().optional(),
  created_in_db_at: z.string().optional(),
});
export type Recall = z.infer<typeof RecallSchema> & Record<string, unknown>;

/**
 * A record from a custom feed: its shape is the enterprise client's own, so only "an object" is checked, and that a
 * numeric `id` is a whole number up to 2^53 - 1, as the standard feed's must be: two ids past it, or two fractions,
 * may read as one (1234567890123456.7 and .8), and paging keeps one record per id.
 */
export const CustomRecordSchema = z
  .record(z.string(), z.unknown())
  .refine((r) => typeof r.id !== 'number' || Number.isSafeInteger(r.id), {
    message:
      'a numeric id that is no whole number up to 2^53 - 1, which JSON numbers keep exactly (two such ids may read as one)',
    path: ['id'],
  });
export type CustomRecord = Record<string, unknown>;

export const PaginationSchema = z.looseObject({
  total_count: z.number().int(),
  returned_count: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().optional(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const MetaSchema = z.looseObject({
  filters_applied: z.looseObject({
    hours_ago: z.number().int().optional(),
    data_sources: z.array(z.string()).optional(),
    sort_by: z.string().optional(),
    sort_order: z.string().optional(),
  }),
  processing_time_ms: z.number(),
  timestamp: z.string(),
});
export type Meta = z.infer<typeof MetaSchema>;

export const RateLimitInfoSchema = z.looseObject({
  limits: z.looseObject({
    per_minute: z.number().int().optional(),
    per_hour: z.number().int().optional(),
    per_day: z.number().int().optional(),
  }),
  remaining_credits: z.number().int(),
  monthly_quota: z.number().int().optional(),
  monthly_usage: z.number().int().optional(),
});
export type RateLimitInfo = z.infer<typeof RateLimitInfoSchema>;

export const DataSourcesInfoSchema = z.looseObject({
  available: z.array(z.string()),
  requested: z.array(z.string()),
  filtered: z.array(z.string()),
});
export type DataSourcesInfo = z.infer<typeof DataSourcesInfoSchema>;

const feedEnvelope = <T extends z.ZodTypeAny>(record: T) =>
  z.looseObject({
    success: z.boolean(),
    data: z.array(record),
    pagination: PaginationSchema,
    // Optional: the operator's OpenAPI skeleton does not list meta, and its quickstart page has neither.
    meta: MetaSchema.optional(),
    rate_limit: RateLimitInfoSchema,
    data_sources: DataSourcesInfoSchema.optional(),
  });

export const FeedResponseSchema = feedEnvelope(RecallSchema);
export const CustomFeedResponseSchema = feedEnvelope(CustomRecordSchema);

/** One page of a feed; `data` holds the records exactly as the server sent them. */
export interface FeedPage<R = Recall> {
  data: R[];
  pagination: Pagination;
  /** Absent from some of the operator's own examples: nothing may depend on it. */
  meta?: Meta;
  rate_limit: RateLimitInfo;
  /** Absent from some of the operator's own examples: readers fall back to the sources they asked for. */
  data_sources?: DataSourcesInfo;
}

export const DataSourceSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  official_url: z.string(),
});
export type DataSource = z.infer<typeof DataSourceSchema>;

export const SourcesResponseSchema = z.looseObject({
  success: z.boolean(),
  data_sources: z.array(DataSourceSchema),
  total_available: z.number().int(),
});
export type SourcesResponse = z.infer<typeof SourcesResponseSchema>;

export const HealthResponseSchema = z.looseObject({
  status: z.string(),
  timestamp: z.string().optional(),
  version: z.string().optional(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

export const ErrorBodySchema = z.object({
  detail: z.looseObject({
    error: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    help: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const UnauthorizedSourcesDetailsSchema = z.looseObject({
  requested: z.array(z.string()),
  authorized: z.array(z.string()),
});

export const RateLimitDetailsSchema = z.looseObject({
  limit_type: z.string(),
  limit: z.number().int(),
  reset_at: z.string(),
});

/** Query parameters of the feed endpoints, as the client accepts them. */
export interface FeedParams {
  dataSources?: string[];
  hoursAgo?: number;
  limit?: number;
  cursor?: string;
  sortBy?: SortField;
  sortOrder?: SortOrder;
}
