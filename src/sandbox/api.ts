// The API's endpoints proper: feed query validation, feed pages (standard and custom), and the sources list.
import {
  BOUNDS,
  SORT_FIELDS,
  SORT_ORDERS,
  SOURCE_IDS,
  type SortField,
  type SortOrder,
  type SpecRecall,
} from '../api/schemas.js';
import { timestampMicros } from '../api/timestamps.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { SOURCE_CATALOG, canonicalSource, type SandboxKey } from './demo-keys.js';
import type { LimitSnapshot } from './limiter.js';
import { errorAnswer, isoMicros, type ApiAnswer } from './respond.js';
import type { RecordStore } from './store.js';

export interface FeedRequest {
  hoursAgo: number;
  limit: number;
  sortBy: SortField;
  sortOrder: SortOrder;
  /** As the client typed them (trimmed, deduplicated); the key's sources when absent. */
  requested: string[];
  /** Canonical IDs actually applied. */
  filtered: string[];
  after?: { key: number; id: number };
}

/** The valid sort fields, in the order the spec lists them in the sort_by error. */
const VALID_SORT_FIELDS = ['created_in_db_at', 'published_at', 'updated_at'];
const CURSOR_HELP = 'Pass back the next_cursor of the previous page verbatim, with the same sort_by and sort_order.';

function intParam(
  params: URLSearchParams,
  name: string,
  min: number,
  max: number,
  fallback: number,
  help: string,
): number | ApiAnswer {
  const raw = params.get(name);
  if (raw === null) return fallback;
  const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
  return errorAnswer(400, 'validation_error', `Invalid ${name}: must be an integer from ${min} to ${max}`, help, {
    provided: raw,
    min,
    max,
  });
}

/** Validates the feed's query; answers 400 (validation_error) or 403 (unauthorized_data_sources) when it must. */
export function parseFeedQuery(params: URLSearchParams, key: SandboxKey, store: RecordStore): FeedRequest | ApiAnswer {
  const hoursAgo = intParam(
    params,
    'hours_ago',
    BOUNDS.hoursMin,
    BOUNDS.hoursMax,
    BOUNDS.defaultHours,
    'hours_ago is the look-back window in hours: the feed covers the last 24 hours at most.',
  );
  if (typeof hoursAgo !== 'number') return hoursAgo;
  const limit = intParam(
    params,
    'limit',
    BOUNDS.pageSizeMin,
    BOUNDS.pageSizeMax,
    BOUNDS.defaultPageSize,
    'limit is the page size: page through larger results with the cursor.',
  );
  if (typeof limit !== 'number') return limit;

  const sortBy = params.get('sort_by') ?? 'published_at';
  if (!SORT_FIELDS.includes(sortBy as SortField)) {
    return errorAnswer(
      400,
      'validation_error',
      `Invalid sort_by field: ${sortBy}`,
      `Use one of: ${VALID_SORT_FIELDS.join(', ')}.`,
      {
        provided: sortBy,
        valid_fields: VALID_SORT_FIELDS,
      },
    );
  }
  const sortOrder = params.get('sort_order') ?? 'desc';
  if (!SORT_ORDERS.includes(sortOrder as SortOrder)) {
    return errorAnswer(
      400,
      'validation_error',
      `Invalid sort_order: ${sortOrder}`,
      'Use desc (newest first) or asc (oldest first).',
      {
        provided: sortOrder,
        valid_values: [...SORT_ORDERS],
      },
    );
  }

  // A repeated data_sources parameter counts as one comma-separated list.
  const all = params.getAll('data_sources');
  const rawSources = all.length === 0 ? null : all.join(',');
  let requested = key.sources;
  if (rawSources !== null) {
    requested = [
      ...new Set(
        rawSources
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      ),
    ];
    if (requested.length === 0) {
      return errorAnswer(
        400,
        'validation_error',
        'data_sources must name at least one data source ID',
        'Leave data_sources out to get every source your key may use, or list IDs separated by commas.',
        {
          provided: rawSources,
          valid_values: key.sources,
        },
      );
    }
    const denied = requested.filter((s) => !key.sources.includes(canonicalSource(s)));
    if (denied.length > 0) {
      return errorAnswer(
        403,
        'unauthorized_data_sources',
        `Your API key is not authorized for data sources: ${denied.join(', ')}`,
        'GET /v1/recalls/sources lists the sources your key may use.',
        {
          requested,
          authorized: key.sources,
        },
      );
    }
  }
  const filtered = SOURCE_IDS.filter((s) => requested.some((r) => canonicalSource(r) === s));

  const req: FeedRequest = {
    hoursAgo,
    limit,
    sortBy: sortBy as SortField,
    sortOrder: sortOrder as SortOrder,
    requested,
    filtered,
  };
  const rawCursor = params.get('cursor');
  if (rawCursor !== null && rawCursor !== '') {
    const bad = (reason: string) =>
      errorAnswer(400, 'validation_error', `Invalid cursor: ${reason}`, CURSOR_HELP, { provided: rawCursor, reason });
    const decoded = decodeCursor(rawCursor);
    if (!decoded.ok) return bad(decoded.reason);
    const c = decoded.cursor;
    if ('sort_by' in c) {
      if (c.sort_by !== req.sortBy || c.sort_order !== req.sortOrder) {
        return bad(`the cursor belongs to sort_by=${c.sort_by}, sort_order=${c.sort_order}`);
      }
      req.after = { key: timestampMicros(c.value), id: c.id };
    } else {
      // The documented form {"id":N}: position after that record in the current sort.
      const k = store.keyOf(c.id, req.sortBy);
      if (k === undefined) return bad(`no record with id ${c.id}`);
      req.after = { key: k, id: c.id };
    }
  }
  return req;
}

export interface PageContext {
  store: RecordStore;
  now: number;
  startedAt: number;
  key: SandboxKey;
  snapshot: LimitSnapshot;
}

export function rateLimitBlock(s: LimitSnapshot) {
  return {
    limits: { per_minute: s.minute.limit, per_hour: s.hour.limit, per_day: s.day.limit },
    remaining_credits: s.month.remaining,
    monthly_quota: s.month.limit,
    monthly_usage: s.month.usage,
  };
}

/** A retailer's own record shape, as an enterprise custom feed would send it. */
function demoRecord(r: SpecRecall): Record<string, unknown> {
  const code = (r.standard_identifiers_and_barcodes as { type?: string; value?: string }[]).find(isBarcode);
  return {
    id: r.id,
    sku: `DEMO-${code?.value ?? r.id}`,
    retailer: 'Demo Retail Ltd',
    recall_ref: `${r.data_source}:${r.source_case_id}`,
    title: r.alert_title,
    hazard: r.hazard_description,
    action: r.measure_details,
    risk_level: r.risk_severity,
    source: r.data_source,
    source_url: r.source_url,
    published_at: r.published_at,
    updated_at: r.updated_at,
    created_in_db_at: r.created_in_db_at,
  };
}

function isBarcode(x: unknown): boolean {
  const t = (x as { type?: unknown } | null)?.type;
  return t === 'UPC' || t === 'EAN' || t === 'GTIN';
}

/** Custom feeds the sandbox serves; each maps matching records into its own shape. */
export const CUSTOM_FEEDS: Record<string, { include: (r: SpecRecall) => boolean; map: (r: SpecRecall) => unknown }> = {
  demo: { include: (r) => r.standard_identifiers_and_barcodes.some(isBarcode), map: demoRecord },
};

export function feedAnswer(req: FeedRequest, ctx: PageContext, custom?: string): ApiAnswer {
  const feed = custom === undefined ? undefined : CUSTOM_FEEDS[custom];
  const result = ctx.store.query({
    sources: req.filtered,
    sinceMicros: (ctx.now - req.hoursAgo * 3_600_000) * 1000,
    sortBy: req.sortBy,
    sortOrder: req.sortOrder,
    limit: req.limit,
    ...(req.after ? { after: req.after } : {}),
    ...(feed ? { include: feed.include } : {}),
  });
  const last = result.page[result.page.length - 1];
  const next =
    result.hasMore && last
      ? encodeCursor({ id: last.id, sort_by: req.sortBy, sort_order: req.sortOrder, value: last[req.sortBy] })
      : null;
  return {
    status: 200,
    body: {
      success: true,
      data: feed ? result.page.map(feed.map) : result.page,
      pagination: {
        total_count: result.total,
        returned_count: result.page.length,
        limit: req.limit,
        has_more: result.hasMore,
        next_cursor: next,
      },
      meta: {
        filters_applied: {
          hours_ago: req.hoursAgo,
          data_sources: req.filtered,
          sort_by: req.sortBy,
          sort_order: req.sortOrder,
          limit: req.limit,
          cursor_used: req.after !== undefined,
        },
        processing_time_ms: Math.max(0, Math.round(performance.now() - ctx.startedAt)),
        timestamp: isoMicros(ctx.now),
      },
      rate_limit: rateLimitBlock(ctx.snapshot),
      data_sources: { available: ctx.key.sources, requested: req.requested, filtered: req.filtered },
    },
  };
}

export function sourcesAnswer(key: SandboxKey): ApiAnswer {
  const list = SOURCE_IDS.filter((s) => key.sources.includes(s)).map((s) => SOURCE_CATALOG[s]);
  return { status: 200, body: { success: true, data_sources: list, total_available: list.length } };
}
