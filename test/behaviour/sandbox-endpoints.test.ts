// Every sandbox endpoint and error over real HTTP: exact error bodies, schema-valid answers, hooks and the handle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorBodySchema,
  FeedResponseSchema,
  HealthResponseSchema,
  SourcesResponseSchema,
  SpecRecallSchema,
  CustomFeedResponseSchema,
} from '../../src/api/schemas.js';
import { DEMO_KEYS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ALL, LIMITED, closeAgent, call, get } from './sandbox-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false });
});
afterAll(async () => {
  await sb.close();
  await closeAgent();
});

const ISO_MICRO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

describe('GET /health', () => {
  it('answers healthy without a key, and 503 unhealthy when told', async () => {
    const ok = await get(sb.url, '/health', null);
    expect(ok.status).toBe(200);
    expect(HealthResponseSchema.parse(ok.json)).toEqual({
      status: 'healthy',
      timestamp: expect.stringMatching(ISO_MICRO_OFFSET),
      version: '1.0.0-sandbox',
    });
    sb.setHealthy(false);
    const bad = await get(sb.url, '/health', null);
    expect(bad.status).toBe(503);
    expect(bad.json).toMatchObject({ status: 'unhealthy', version: '1.0.0-sandbox' });
    await call(sb.url, '/_sandbox/health', { method: 'POST', body: { healthy: true } });
    expect((await get(sb.url, '/health')).status).toBe(200);
  });
});

describe('GET /v1/recalls/sources', () => {
  it('lists the key’s sources, with safety_gate canonical', async () => {
    const all = await get(sb.url, '/v1/recalls/sources');
    expect(all.status).toBe(200);
    const parsed = SourcesResponseSchema.parse(all.json);
    expect(parsed.data_sources.map((s) => s.id)).toEqual([
      'us_cpsc',
      'safety_gate',
      'uk_opss',
      'rappel_conso',
      'rappel_conso_food',
    ]);
    expect(parsed.total_available).toBe(5);
    const limited = await get(sb.url, '/v1/recalls/sources', LIMITED);
    expect(limited.json).toEqual({
      success: true,
      data_sources: [
        {
          id: 'us_cpsc',
          name: 'US CPSC',
          description: 'US Consumer Product Safety Commission - Consumer products',
          official_url: 'https://www.cpsc.gov',
        },
        {
          id: 'uk_opss',
          name: 'UK OPSS',
          description: 'UK Office for Product Safety & Standards',
          official_url: 'https://www.gov.uk/opss',
        },
      ],
      total_available: 2,
    });
  });
});

describe('GET /v1/recalls/feed', () => {
  it('answers a default page that parses with the schemas and tells the truth in every block', async () => {
    const res = await get(sb.url, '/v1/recalls/feed');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const page = FeedResponseSchema.parse(res.json);
    for (const r of res.json.data) SpecRecallSchema.parse(r);
    expect(page.data).toHaveLength(50);
    expect(page.pagination).toMatchObject({ returned_count: 50, limit: 50, has_more: true });
    expect(page.pagination.total_count).toBe(1200);
    expect(page.meta?.filters_applied).toEqual({
      hours_ago: 24,
      data_sources: ['us_cpsc', 'safety_gate', 'uk_opss', 'rappel_conso', 'rappel_conso_food'],
      sort_by: 'published_at',
      sort_order: 'desc',
      limit: 50,
      cursor_used: false,
    });
    expect(page.meta?.timestamp).toMatch(ISO_MICRO_OFFSET);
    expect(Number.isInteger(page.meta?.processing_time_ms)).toBe(true);
    expect(res.json.rate_limit).toEqual({
      limits: { per_minute: 60, per_hour: 1000, per_day: 10000 },
      remaining_credits: expect.any(Number),
      monthly_quota: 50000,
      monthly_usage: expect.any(Number),
    });
    expect(res.json.rate_limit.remaining_credits).toBe(50000 - res.json.rate_limit.monthly_usage);
    expect(page.data_sources).toEqual({
      available: DEMO_KEYS.all.sources,
      requested: DEMO_KEYS.all.sources,
      filtered: DEMO_KEYS.all.sources,
    });
    const first = res.json.data[0];
    expect(first.published_at).toMatch(NAIVE);
    expect(first.updated_at).toMatch(NAIVE);
    expect(first.created_in_db_at).toMatch(ISO_MICRO_OFFSET);
    const cursor = JSON.parse(Buffer.from(page.pagination.next_cursor as string, 'base64').toString());
    const last = res.json.data[49];
    expect(cursor).toEqual({ id: last.id, sort_by: 'published_at', sort_order: 'desc', value: last.published_at });
  });

  it('counts monthly usage per request in the rate_limit block', async () => {
    const a = await get(sb.url, '/v1/recalls/feed?limit=1');
    const b = await get(sb.url, '/v1/recalls/feed?limit=1');
    expect(b.json.rate_limit.monthly_usage).toBe(a.json.rate_limit.monthly_usage + 1);
  });

  it('filters by source, accepts eu_safety_gate as an alias and echoes what was asked', async () => {
    const res = await get(sb.url, '/v1/recalls/feed?data_sources=eu_safety_gate,%20us_cpsc&limit=500');
    expect(res.status).toBe(200);
    expect(res.json.data_sources).toEqual({
      available: DEMO_KEYS.all.sources,
      requested: ['eu_safety_gate', 'us_cpsc'],
      filtered: ['us_cpsc', 'safety_gate'],
    });
    expect(new Set(res.json.data.map((r: { data_source: string }) => r.data_source))).toEqual(
      new Set(['us_cpsc', 'safety_gate']),
    );
    expect(res.json.meta.filters_applied.data_sources).toEqual(['us_cpsc', 'safety_gate']);
  });

  it('reads a repeated data_sources parameter as one list', async () => {
    const res = await get(sb.url, '/v1/recalls/feed?data_sources=uk_opss&data_sources=rappel_conso&limit=1');
    expect(res.json.data_sources.filtered).toEqual(['uk_opss', 'rappel_conso']);
  });

  it('never returns records older than the window', async () => {
    const now = Date.now();
    for (const h of [1, 6, 24]) {
      const res = await get(sb.url, `/v1/recalls/feed?hours_ago=${h}&limit=500&sort_order=asc`);
      const oldest = res.json.data[0];
      if (oldest) expect(Date.parse(`${oldest.published_at}Z`)).toBeGreaterThanOrEqual(now - h * 3_600_000 - 1000);
      const expected = sb
        .records()
        .filter((r) => Date.parse(`${r.published_at}Z`) >= now - h * 3_600_000 + 60_000).length;
      expect(res.json.pagination.total_count).toBeGreaterThanOrEqual(expected);
    }
    const older = sb.records().filter((r) => Date.parse(`${r.published_at}Z`) < now - 24 * 3_600_000);
    expect(older.length).toBe(60);
  });

  it('serves the demo custom feed in its own shape with the same envelope', async () => {
    const res = await get(sb.url, '/v1/recalls/feed/demo?limit=5&sort_by=updated_at&sort_order=asc');
    expect(res.status).toBe(200);
    const page = CustomFeedResponseSchema.parse(res.json);
    expect(Object.keys(page.data[0] as object)).toEqual([
      'id',
      'sku',
      'retailer',
      'recall_ref',
      'title',
      'hazard',
      'action',
      'risk_level',
      'source',
      'source_url',
      'published_at',
      'updated_at',
      'created_in_db_at',
    ]);
    expect(page.meta?.filters_applied.sort_by).toBe('updated_at');
    const next = await get(
      sb.url,
      `/v1/recalls/feed/demo?limit=5&sort_by=updated_at&sort_order=asc&cursor=${encodeURIComponent(page.pagination.next_cursor as string)}`,
    );
    expect(next.json.pagination.total_count).toBe(page.pagination.total_count);
    expect(next.json.data[0].id).not.toBe((page.data[4] as { id: number }).id);
  });
});

describe('errors', () => {
  const help = {
    key: 'Send a valid key in the X-API-Key header. The sandbox accepts its demo keys (DEMO_KEYS) or those it was started with.',
    hours: 'hours_ago is the look-back window in hours: the feed covers the last 24 hours at most.',
    limit: 'limit is the page size: page through larger results with the cursor.',
    cursor: 'Pass back the next_cursor of the previous page verbatim, with the same sort_by and sort_order.',
  };

  it('401 invalid_api_key for a missing or a wrong key', async () => {
    for (const [key, message] of [
      [null, 'Missing API key'],
      ['dr_test_nope', 'Invalid API key'],
    ] as const) {
      const res = await get(sb.url, '/v1/recalls/feed', key);
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ detail: { error: 'invalid_api_key', message, help: help.key } });
    }
    expect((await get(sb.url, '/v1/recalls/sources', null)).status).toBe(401);
  });

  it('403 unauthorized_data_sources for an unknown ID or one the key may not use', async () => {
    const res = await get(sb.url, '/v1/recalls/feed?data_sources=us_cpsc,us_fda');
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      detail: {
        error: 'unauthorized_data_sources',
        message: 'Your API key is not authorized for data sources: us_fda',
        details: { requested: ['us_cpsc', 'us_fda'], authorized: DEMO_KEYS.all.sources },
        help: 'GET /v1/recalls/sources lists the sources your key may use.',
      },
    });
    const limited = await get(sb.url, '/v1/recalls/feed?data_sources=safety_gate', LIMITED);
    expect(limited.status).toBe(403);
    expect(limited.json.detail.details).toEqual({ requested: ['safety_gate'], authorized: ['us_cpsc', 'uk_opss'] });
  });

  it.each([
    ['hours_ago=0', 'hours_ago', '0', 1, 24],
    ['hours_ago=25', 'hours_ago', '25', 1, 24],
    ['hours_ago=1.5', 'hours_ago', '1.5', 1, 24],
    ['hours_ago=abc', 'hours_ago', 'abc', 1, 24],
    ['limit=0', 'limit', '0', 1, 500],
    ['limit=501', 'limit', '501', 1, 500],
    ['limit=', 'limit', '', 1, 500],
  ])('400 validation_error for %s', async (qs, name, provided, min, max) => {
    const res = await get(sb.url, `/v1/recalls/feed?${qs}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      detail: {
        error: 'validation_error',
        message: `Invalid ${name}: must be an integer from ${min} to ${max}`,
        details: { provided, min, max },
        help: name === 'limit' ? help.limit : help.hours,
      },
    });
  });

  it('400 validation_error for sort_by, sort_order and an empty data_sources', async () => {
    expect((await get(sb.url, '/v1/recalls/feed?sort_by=id')).json).toEqual({
      detail: {
        error: 'validation_error',
        message: 'Invalid sort_by field: id',
        details: { provided: 'id', valid_fields: ['created_in_db_at', 'published_at', 'updated_at'] },
        help: 'Use one of: created_in_db_at, published_at, updated_at.',
      },
    });
    expect((await get(sb.url, '/v1/recalls/feed?sort_order=up')).json).toEqual({
      detail: {
        error: 'validation_error',
        message: 'Invalid sort_order: up',
        details: { provided: 'up', valid_values: ['desc', 'asc'] },
        help: 'Use desc (newest first) or asc (oldest first).',
      },
    });
    const empty = await get(sb.url, '/v1/recalls/feed?data_sources=,');
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({
      detail: {
        error: 'validation_error',
        message: 'data_sources must name at least one data source ID',
        details: { provided: ',', valid_values: DEMO_KEYS.all.sources },
        help: 'Leave data_sources out to get every source your key may use, or list IDs separated by commas.',
      },
    });
  });

  it('400 validation_error for a bad cursor or one from another sort', async () => {
    const bad = await get(sb.url, '/v1/recalls/feed?cursor=%25%25%25');
    expect(bad.json).toEqual({
      detail: {
        error: 'validation_error',
        message: 'Invalid cursor: not base64',
        details: { provided: '%%%', reason: 'not base64' },
        help: help.cursor,
      },
    });
    const notJson = Buffer.from('hello').toString('base64');
    expect((await get(sb.url, `/v1/recalls/feed?cursor=${notJson}`)).json.detail.details.reason).toBe(
      'not a JSON cursor',
    );
    const first = await get(sb.url, '/v1/recalls/feed?limit=2&sort_by=updated_at');
    const cursor = first.json.pagination.next_cursor as string;
    const mismatch = await get(
      sb.url,
      `/v1/recalls/feed?limit=2&sort_by=published_at&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.detail.details).toEqual({
      provided: cursor,
      reason: 'the cursor belongs to sort_by=updated_at, sort_order=desc',
    });
    const wrongOrder = await get(
      sb.url,
      `/v1/recalls/feed?limit=2&sort_by=updated_at&sort_order=asc&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(wrongOrder.status).toBe(400);
  });

  it('accepts a cursor raw (with + and =) as well as percent-encoded, and the documented {"id":N} form', async () => {
    const first = await get(sb.url, '/v1/recalls/feed?limit=3');
    const cursor = first.json.pagination.next_cursor as string;
    const encoded = await get(sb.url, `/v1/recalls/feed?limit=3&cursor=${encodeURIComponent(cursor)}`);
    const raw = await get(sb.url, `/v1/recalls/feed?limit=3&cursor=${cursor}`);
    expect(raw.status).toBe(200);
    expect(raw.json.data).toEqual(encoded.json.data);
    expect(raw.json.meta.filters_applied.cursor_used).toBe(true);
    const lastId = first.json.data[2].id as number;
    const idOnly = Buffer.from(JSON.stringify({ id: lastId })).toString('base64');
    const legacy = await get(sb.url, `/v1/recalls/feed?limit=3&cursor=${idOnly}`);
    expect(legacy.json.data).toEqual(encoded.json.data);
    const unknown = await get(sb.url, `/v1/recalls/feed?cursor=${Buffer.from('{"id":1}').toString('base64')}`);
    expect(unknown.json.detail.details.reason).toBe('no record with id 1');
  });

  it('404 not_found for unknown paths and custom feeds, 405 for other methods', async () => {
    expect((await get(sb.url, '/v1/recalls/feed/shein')).json).toEqual({
      detail: {
        error: 'not_found',
        message: 'Unknown custom feed: shein',
        help: 'Custom feeds are set up per enterprise client; the sandbox serves /v1/recalls/feed/demo.',
      },
    });
    const unknown = await get(sb.url, '/v1/recalls/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({
      detail: {
        error: 'not_found',
        message: 'No such endpoint: /v1/recalls/nothing',
        help: 'See the API documentation for the available endpoints.',
      },
    });
    expect((await get(sb.url, '/', null)).status).toBe(404);
    const post = await call(sb.url, '/v1/recalls/feed', { key: ALL, method: 'POST', body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
    expect(post.json).toEqual({
      detail: {
        error: 'method_not_allowed',
        message: 'Method POST is not allowed on /v1/recalls/feed',
        help: 'The API is read-only: use GET.',
      },
    });
    expect((await call(sb.url, '/health', { method: 'DELETE' })).status).toBe(405);
  });

  it('every error body parses with ErrorBodySchema', async () => {
    for (const p of ['/v1/recalls/feed?limit=x', '/v1/recalls/feed?data_sources=us_fda', '/v1/x']) {
      ErrorBodySchema.parse((await get(sb.url, p)).json);
    }
  });
});
