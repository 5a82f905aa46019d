// The hand-written body checks accept exactly what the zod schemas accept: every field of a valid body is
// removed or replaced by values of every JSON type, and both must give the same verdict.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { isCustomFeedBody, isErrorBody, isFeedBody, isHealthBody, isSourcesBody } from '../../src/api/body-shapes.js';
import {
  CustomFeedResponseSchema,
  ErrorBodySchema,
  FeedResponseSchema,
  HealthResponseSchema,
  SourcesResponseSchema,
} from '../../src/api/schemas.js';
import { feedBody } from '../helpers/scripted-server.js';

const REPLACEMENTS: unknown[] = [null, true, 0, -3, 1.5, 2 ** 60, Infinity, '', 'text', [], ['a'], [1], {}, { a: 1 }];

type Path = (string | number)[];

/** Every path to a value inside `value`, the root excluded. */
function paths(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

/** A deep copy of `body` with the value at `path` replaced, or removed when `replacement` is REMOVE. */
const REMOVE = Symbol('remove');
function mutate(body: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (replacement === REMOVE) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return copy;
}

function variants(body: unknown): unknown[] {
  const out: unknown[] = [body, ...REPLACEMENTS];
  for (const path of paths(body)) {
    out.push(mutate(body, path, REMOVE));
    for (const r of REPLACEMENTS) out.push(mutate(body, path, r));
  }
  return out;
}

function disagreements(body: unknown, check: (b: unknown) => boolean, schema: z.ZodType): unknown[] {
  return variants(body).filter((v) => check(v) !== schema.safeParse(v).success);
}

const fullRecord = {
  id: 7,
  data_source: 'us_cpsc',
  published_at: '2025-12-11T00:00:00',
  updated_at: '2025-12-11T00:00:00',
  created_in_db_at: '2025-12-11T00:00:01',
  extra: { nested: [1] },
};

describe('hand-written body checks', () => {
  it('agree with FeedResponseSchema on every variant of a feed page', () => {
    const body = feedBody([fullRecord, { id: 8, data_source: 'uk_opss', published_at: 'x' }]);
    expect(isFeedBody(body)).toBe(true);
    expect(variants(body).filter((v) => !isFeedBody(v)).length).toBeGreaterThan(100);
    expect(disagreements(body, isFeedBody, FeedResponseSchema)).toEqual([]);
  });

  it('agree with CustomFeedResponseSchema on every variant of a custom page', () => {
    // An id: its variants past 2^53 (2 ** 60, Infinity) are refused by both.
    const body = feedBody([{ id: 5, sku: 'A1', n: 2 }, { sku: 'B2' }]);
    expect(isCustomFeedBody(body)).toBe(true);
    expect(disagreements(body, isCustomFeedBody, CustomFeedResponseSchema)).toEqual([]);
  });

  it('agree with SourcesResponseSchema, HealthResponseSchema and ErrorBodySchema', () => {
    const source = { id: 'us_cpsc', name: 'CPSC', description: 'US', official_url: 'https://cpsc.gov' };
    const sources = { success: true, data_sources: [source, { ...source, id: 'uk_opss' }], total_available: 2 };
    const health = { status: 'healthy', timestamp: 't', version: '1' };
    const error = { detail: { error: 'not_found', message: 'm', details: { a: [1] }, help: 'h' } };
    expect([isSourcesBody(sources), isHealthBody(health), isErrorBody(error)]).toEqual([true, true, true]);
    expect(disagreements(sources, isSourcesBody, SourcesResponseSchema)).toEqual([]);
    expect(disagreements(health, isHealthBody, HealthResponseSchema)).toEqual([]);
    expect(disagreements(error, isErrorBody, ErrorBodySchema)).toEqual([]);
  });
});
